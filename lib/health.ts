import { getConfig } from '@/lib/config';
import { countOwnerDocuments, type OwnerDocumentCounts } from '@/lib/db/documents';
import { databaseProvider, pingDatabase } from '@/lib/db/lifecycle';
import { type EventLoopDelay, readEventLoopDelay } from '@/lib/event-loop';

export type ComponentStatus = 'ok' | 'unreachable' | 'error';

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  database: { status: ComponentStatus; provider: string; detail: string };
  chunkIndex: { status: ComponentStatus; engine: string; location: string; detail: string };
  llm: {
    status: ComponentStatus;
    provider: string;
    baseURL: string;
    decisionModel: string;
    synthesisModel: string;
    detail: string;
  };
  embedder: { status: ComponentStatus; baseURL: string; model: string; detail: string };
  mode: { answers: 'llm' | 'extractive'; semanticSearch: boolean };
  checkedAt: string;
}

async function timed<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Checks every backend the app uses; never throws. */
export async function getHealthReport(): Promise<HealthReport> {
  const config = getConfig();
  const provider = databaseProvider();
  let database: HealthReport['database'];
  try {
    await timed(pingDatabase, 3000);
    database = { status: 'ok', provider, detail: provider === 'sqlite' ? 'embedded SQLite' : 'PostgreSQL' };
  } catch (error) {
    database = { status: 'error', provider, detail: errorText(error) };
  }

  const { checkServices } = await import('@/lib/services');
  const services = await checkServices();

  const status =
    database.status !== 'ok' || services.chunkIndex.status !== 'ok'
      ? 'down'
      : services.llm.status === 'ok' && services.embedder.status === 'ok'
        ? 'ok'
        : 'degraded';
  return {
    status,
    database,
    chunkIndex: services.chunkIndex,
    llm: {
      ...services.llm,
      provider: config.llm.provider,
      baseURL: config.llm.baseURL,
      decisionModel: config.llm.decisionModel,
      synthesisModel: config.llm.synthesisModel,
    },
    embedder: { ...services.embedder, baseURL: config.llm.baseURL, model: config.llm.embeddingModel },
    mode: {
      answers: services.llm.status === 'ok' ? 'llm' : 'extractive',
      semanticSearch: services.embedder.status === 'ok',
    },
    checkedAt: new Date().toISOString(),
  };
}

/**
 * What anyone may see (signed out, load balancers, uptime checks): one word. `degraded` covers every partial
 * outage (no LLM: extractive answers; no embedder: keyword search; database or index down).
 */
export interface PublicHealth {
  status: 'ok' | 'degraded';
}

export function toPublicHealth(report: Pick<HealthReport, 'status'>): PublicHealth {
  return { status: report.status === 'ok' ? 'ok' : 'degraded' };
}

/**
 * The signed-in view: the full report (paths, URLs, models) plus this process's event-loop delay and the
 * caller's own counts and ingest queue. Nothing in it counts another owner's data.
 */
export interface HealthDetails extends HealthReport {
  eventLoopDelay: EventLoopDelay;
  yours: (OwnerDocumentCounts & { queueDepth: number }) | null;
}

export async function getHealthDetails({ ownerId }: { ownerId: string }): Promise<HealthDetails> {
  const report = await getHealthReport();
  let yours: HealthDetails['yours'] = null;
  if (report.database.status === 'ok') {
    try {
      const counts = await countOwnerDocuments({ ownerId });
      yours = { ...counts, queueDepth: counts.documents.PENDING + counts.documents.PROCESSING };
    } catch (error) {
      console.warn('[health] could not count documents', error);
    }
  }
  return { ...report, eventLoopDelay: readEventLoopDelay(), yours };
}
