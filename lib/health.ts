import { getConfig } from '@/lib/config';
import { databaseProvider, pingDatabase } from '@/lib/db/lifecycle';

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
