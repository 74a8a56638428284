import path from 'node:path';
import { getConfig } from '@/lib/config';
import { createPrismaEmbeddingCache } from '@/lib/db/embedding-cache';
import { ensureDbReady } from '@/lib/db/lifecycle';
import type { ManageDeps } from '@/lib/documents/manage';
import type { IngestWorker } from '@/lib/ingest/jobs';
import type { DocumentEmbedder } from '@/lib/ingest/pipeline';
import { createEmbedder, type Embedder } from '@/lib/llm/embedder';
import { createLlmProbe, type LlmProbe, type LlmReachability } from '@/lib/llm/reachability';
import { createModelRegistry, type LlmConfig, type ModelRegistry } from '@/lib/llm/registry';
import type { ChunkIndex, ChunkIndexHealth } from '@/lib/retrieval/types';

/**
 * Process-wide backends built from the configuration, lazily and once: the chunk index (embedded store by
 * default, Qdrant when QDRANT_URL is set), the model registry and its reachability probe, the embedder, and the
 * ingest worker. Route handlers and the CLI get their dependencies here; libraries take them as arguments.
 */

interface ServiceState {
  index?: Promise<ChunkIndex>;
  registry?: ModelRegistry;
  probe?: LlmProbe;
  embedder?: Embedder;
  worker?: IngestWorker;
}

const globalForServices = globalThis as unknown as { docuchatServices?: ServiceState };
globalForServices.docuchatServices ??= {};
const state: ServiceState = globalForServices.docuchatServices;

export function llmConfig(): LlmConfig {
  const { llm } = getConfig();
  return {
    provider: llm.provider,
    baseURL: llm.baseURL,
    apiKey: llm.apiKey,
    decisionModel: llm.decisionModel,
    synthesisModel: llm.synthesisModel,
    embeddingModel: llm.embeddingModel,
    numCtx: llm.numCtx,
    timeouts: llm.timeouts,
  };
}

export function getChunkIndex(): Promise<ChunkIndex> {
  if (!state.index) {
    const created = (async () => {
      const config = getConfig();
      if (config.qdrant) {
        const { createQdrantChunkIndex } = await import('@/lib/retrieval/qdrant-chunk-index');
        return createQdrantChunkIndex({
          url: config.qdrant.url,
          apiKey: config.qdrant.apiKey,
          collectionPrefix: config.qdrant.collectionPrefix,
          dimensions: config.llm.embeddingDimensions,
          embeddingModel: config.llm.embeddingModel,
          layout: {
            ...(config.qdrant.shards ? { shardNumber: config.qdrant.shards } : {}),
            ...(config.qdrant.replicationFactor ? { replicationFactor: config.qdrant.replicationFactor } : {}),
            ...(config.qdrant.writeConsistencyFactor
              ? { writeConsistencyFactor: config.qdrant.writeConsistencyFactor }
              : {}),
          },
          perTenantIdf: config.qdrant.tenantIdf,
        });
      }
      const { createEmbeddedChunkIndex } = await import('@/lib/retrieval/embedded-chunk-index');
      return createEmbeddedChunkIndex({
        dir: path.join(config.indexDir, 'embedded'),
        memoryBudgetMb: config.indexMemoryBudgetMb,
        keywordThreads: config.keywordSearchThreads,
        keywordPoolMinPostings: config.keywordPoolMinPostings,
      });
    })();
    state.index = created;
    created.catch(() => {
      if (state.index === created) state.index = undefined; // retry on the next call
    });
  }
  return state.index;
}

export function getModelRegistry(): ModelRegistry {
  state.registry ??= createModelRegistry(llmConfig());
  return state.registry;
}

export function getLlmProbe(): LlmProbe {
  state.probe ??= createLlmProbe(llmConfig());
  return state.probe;
}

export function getEmbedder(): Embedder {
  if (!state.embedder) {
    const registry = getModelRegistry();
    state.embedder = createEmbedder({
      model: registry.embedding,
      modelName: registry.names.embedding,
      batchSize: 64,
      timeoutMs: registry.timeouts.embedMs,
      cache: createPrismaEmbeddingCache(),
    });
  }
  return state.embedder;
}

/** The embedder when the embedding model answers right now, else null (documents index keyword-only). */
export async function resolveDocumentEmbedder(): Promise<DocumentEmbedder | null> {
  const reach = await getLlmProbe().check();
  if (!reach.canEmbed) return null;
  const embedder = getEmbedder();
  return {
    model: getModelRegistry().names.embedding,
    embedDocuments: (texts, signal) => embedder.embedDocuments(texts, signal),
  };
}

/** The decision model for reading typed metadata at ingest when the generation models answer right now, else null. */
async function resolveMetaModel() {
  const reach = await getLlmProbe().check();
  if (!reach.canGenerate) return null;
  const registry = getModelRegistry();
  return { model: registry.decision, timeoutMs: registry.timeouts.decisionMs };
}

/** The section-summary model (LLM_SUMMARY_MODEL) when configured and the generation models answer, else null. */
async function resolveSummaryModel() {
  const name = getConfig().llm.summaryModel;
  if (!name) return null;
  const reach = await getLlmProbe().check();
  if (!reach.canGenerate) return null;
  const registry = getModelRegistry();
  return { model: registry.chat(name), timeoutMs: registry.timeouts.decisionMs };
}

export async function getManageDeps(): Promise<ManageDeps> {
  const index = await getChunkIndex();
  return {
    index,
    kickWorker: kickIngestWorker,
    onDocumentDeleted: async ({ ownerId, documentId }) => {
      const { redactSharesForDocument } = await import('@/lib/share/redact');
      await redactSharesForDocument({ ownerId, documentId });
    },
  };
}

/** Starts the in-process ingest worker (once per process). */
export async function startIngestWorkerOnce(): Promise<IngestWorker> {
  if (!state.worker) {
    await ensureDbReady();
    const { startIngestWorker } = await import('@/lib/ingest/jobs');
    const config = getConfig();
    state.worker = startIngestWorker({
      index: await getChunkIndex(),
      concurrency: config.ingest.concurrency,
      ownerConcurrency: config.ingest.ownerConcurrency,
      limits: {
        parseTimeoutMs: config.ingest.parseTimeoutMs,
        parseMaxMemoryMb: config.ingest.parseMaxMemoryMb,
        ocr: config.ingest.ocr,
        visualFlags: config.llm.vision !== null,
      },
      resolveEmbedder: resolveDocumentEmbedder,
      resolveMetaModel: resolveMetaModel,
      resolveSummaryModel,
      summaryModelConfigured: config.llm.summaryModel !== null,
    });
  }
  return state.worker;
}

/**
 * Wakes this process's worker after a job was queued. The server starts its worker at boot (instrumentation.ts);
 * a process without one (a test, a script) leaves the job queued for whichever worker claims it.
 */
export function kickIngestWorker(): void {
  state.worker?.kick();
}

export interface ServicesStatus {
  chunkIndex: { status: 'ok' | 'unreachable' | 'error'; engine: string; location: string; detail: string };
  llm: { status: 'ok' | 'unreachable' | 'error'; detail: string };
  embedder: { status: 'ok' | 'unreachable' | 'error'; detail: string };
  reachability: LlmReachability;
}

/** Reachability of the chunk index and the models; never throws. */
export async function checkServices(): Promise<ServicesStatus> {
  const config = getConfig();
  const location = config.qdrant ? config.qdrant.url : path.join(config.indexDir, 'embedded');
  let indexHealth: ChunkIndexHealth;
  let engine = config.qdrant ? 'qdrant' : 'embedded';
  try {
    const index = await getChunkIndex();
    engine = index.engine;
    indexHealth = await index.health();
  } catch (error) {
    indexHealth = { ok: false, engine, detail: error instanceof Error ? error.message : String(error) };
  }
  const reachability = await getLlmProbe().check();
  const llmStatus = reachability.status === 'unreachable' ? 'unreachable' : reachability.canGenerate ? 'ok' : 'error';
  const embedStatus = reachability.status === 'unreachable' ? 'unreachable' : reachability.canEmbed ? 'ok' : 'error';
  return {
    chunkIndex: { status: indexHealth.ok ? 'ok' : 'unreachable', engine, location, detail: indexHealth.detail },
    llm: { status: llmStatus, detail: reachability.detail },
    embedder: { status: embedStatus, detail: reachability.detail },
    reachability,
  };
}
