import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { embed, embedMany, wrapLanguageModel } from 'ai';
import type { AgentModels, QueryEmbedder } from '@/lib/agent/ports';
import { parseConfig } from '@/lib/config';
import { probeLlm } from '@/lib/llm/reachability';
import { createModelRegistry, type LlmConfig } from '@/lib/llm/registry';
import type { IndexedChunk } from '@/lib/retrieval/types';

/**
 * The configured language models (lib/llm/registry.ts: Ollama or an OpenAI-compatible server, from the same
 * environment variables as the app) for `npm run eval:agent -- --live`, wrapped to count calls and tokens.
 */

export interface ModelMeter {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

function addUsage(meter: ModelMeter, usage: LanguageModelV4Usage | undefined): void {
  meter.inputTokens += usage?.inputTokens.total ?? 0;
  meter.outputTokens += usage?.outputTokens.total ?? 0;
}

/** The model, counting every generate/stream call and the tokens its provider reports into `meter`. */
export function meteredModel(model: LanguageModelV4, meter: ModelMeter): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v4',
      wrapGenerate: async ({ doGenerate }) => {
        meter.calls++;
        const result = await doGenerate();
        addUsage(meter, result.usage);
        return result;
      },
      wrapStream: async ({ doStream }) => {
        meter.calls++;
        const { stream, ...rest } = await doStream();
        const counted = stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform(part, controller) {
              if (part.type === 'finish') addUsage(meter, part.usage);
              controller.enqueue(part);
            },
          }),
        );
        return { stream: counted, ...rest };
      },
    },
  });
}

export interface LiveModels {
  models: AgentModels;
  /** Null when the embedding model does not answer (retrieval is then keyword-only, as in the app). */
  queryEmbedder: QueryEmbedder | null;
  embedChunks(chunks: IndexedChunk[]): Promise<void>;
  meter: ModelMeter;
  describe: string;
}

/** Probes the configured server; throws with the reason when no chat model answers. */
export async function liveModels(env: Record<string, string | undefined> = process.env): Promise<LiveModels> {
  const { llm } = parseConfig(env);
  const config: LlmConfig = {
    provider: llm.provider,
    baseURL: llm.baseURL,
    apiKey: llm.apiKey,
    decisionModel: llm.decisionModel,
    synthesisModel: llm.synthesisModel,
    embeddingModel: llm.embeddingModel,
    numCtx: llm.numCtx,
    timeouts: llm.timeouts,
  };
  const reach = await probeLlm(config);
  if (!reach.canGenerate) {
    throw new Error(
      `--live needs a reachable chat model (${config.provider} at ${config.baseURL}, decision ${config.decisionModel}): ${reach.status}`,
    );
  }
  const registry = createModelRegistry(config);
  const meter: ModelMeter = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const decision = meteredModel(registry.decision, meter);
  const synthesis = meteredModel(registry.synthesis, meter);
  const canEmbed = reach.canEmbed;
  return {
    models: {
      decision,
      synthesis,
      names: {
        decision: registry.names.decision,
        synthesis: registry.names.synthesis,
        embedding: canEmbed ? registry.names.embedding : null,
      },
    },
    queryEmbedder: canEmbed
      ? {
          model: registry.names.embedding,
          embedQuery: async (text, signal) =>
            (await embed({ model: registry.embedding, value: text, ...(signal ? { abortSignal: signal } : {}) }))
              .embedding,
        }
      : null,
    async embedChunks(chunks) {
      if (!canEmbed) return;
      for (let i = 0; i < chunks.length; i += 32) {
        const batch = chunks.slice(i, i + 32);
        const { embeddings } = await embedMany({
          model: registry.embedding,
          // the same text the ingest pipeline embeds (lib/ingest/pipeline.ts embeddingText)
          values: batch.map((c) => (c.contextPrefix ? `${c.contextPrefix}\n\n${c.text}` : c.text)),
        });
        batch.forEach((c, j) => {
          c.vector = embeddings[j] ?? null;
          c.embeddingModel = c.vector ? registry.names.embedding : null;
        });
      }
    },
    meter,
    describe: `${config.provider} ${registry.names.baseURL}: decision ${config.decisionModel}, synthesis ${config.synthesisModel}, embedding ${canEmbed ? config.embeddingModel : 'unavailable (keyword retrieval)'}`,
  };
}
