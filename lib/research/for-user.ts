import type { z } from 'zod';
import { runAgent } from '@/lib/agent/run-agent';
import { buildAgentDeps } from '@/lib/chat/agent-deps';
import type { agentApiBodySchema } from '@/lib/chat/request';
import type { ResearchStartBody } from './schema';
import { createResearchService, type ResearchService } from './service';

/** The process-wide research service (one runner per server process), built on today's agent dependencies. */
const globalForResearch = globalThis as unknown as { docuchatResearch?: ResearchService };

export function getResearchService(): ResearchService {
  globalForResearch.docuchatResearch ??= createResearchService({ agentDeps: buildAgentDeps, runAgent });
  return globalForResearch.docuchatResearch;
}

/** The research start of an agent API body with `mode: "research"`. */
export function researchStartOf(body: z.infer<typeof agentApiBodySchema>): ResearchStartBody {
  return {
    question: body.question,
    style: body.style,
    ...(body.filters ? { filters: body.filters } : {}),
    conversationId: body.conversationId ?? null,
    skipClarification: false,
  };
}
