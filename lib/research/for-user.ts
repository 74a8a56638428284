import { runAgent } from '@/lib/agent/run-agent';
import { buildAgentDeps } from '@/lib/chat/agent-deps';
import { createResearchService, type ResearchService } from './service';

/** The process-wide research service (one runner per server process), built on today's agent dependencies. */
const globalForResearch = globalThis as unknown as { docuchatResearch?: ResearchService };

export function getResearchService(): ResearchService {
  globalForResearch.docuchatResearch ??= createResearchService({ agentDeps: buildAgentDeps, runAgent });
  return globalForResearch.docuchatResearch;
}
