import type { AgentDeps } from '@/lib/agent/types';
import { getConfig } from '@/lib/config';
import { createPrismaCatalog } from '@/lib/db/catalog';
import { listSectionSummaries } from '@/lib/db/summaries';
import { getChunkIndex, getEmbedder, getLlmProbe, getModelRegistry } from '@/lib/services';
import { appVisionPort } from '@/lib/visual/app-port';

/**
 * The agent's dependencies for this moment: the configured index and catalog, the embedder only when the
 * embedding model answers, and the chat models only when they answer (otherwise extractive mode).
 */
export async function buildAgentDeps(): Promise<AgentDeps> {
  const config = getConfig();
  const reach = await getLlmProbe().check();
  const registry = getModelRegistry();
  const embedder = reach.canEmbed ? getEmbedder() : null;
  return {
    index: await getChunkIndex(),
    catalog: createPrismaCatalog(),
    summaries: { listSummaries: listSectionSummaries },
    vision: appVisionPort(registry, reach.canGenerate),
    embedder: embedder
      ? { model: embedder.modelName, embedQuery: (text, signal) => embedder.embedQuery(text, signal) }
      : null,
    models: reach.canGenerate
      ? {
          decision: registry.decision,
          synthesis: registry.synthesis,
          names: {
            decision: registry.names.decision,
            synthesis: registry.names.synthesis,
            embedding: embedder ? registry.names.embedding : null,
          },
        }
      : {
          decision: null,
          synthesis: null,
          names: { decision: null, synthesis: null, embedding: embedder ? registry.names.embedding : null },
        },
    limits: {
      maxToolCalls: config.agent.maxToolCalls,
      maxIterations: config.agent.maxIterations,
      maxReprompts: config.agent.maxReprompts,
      wallClockMs: config.agent.wallClockMs,
      planMs: config.llm.timeouts.planMs,
      decisionMs: config.llm.timeouts.decisionMs,
      synthesisMs: config.llm.timeouts.synthesisMs,
    },
  };
}
