/**
 * Where ingestion time goes, summed over jobs: the pipeline adds each stage's wall milliseconds to an
 * IngestProfile when one is passed in its deps (the bulk CLI and the ingest benchmark do; the server does not).
 * Stages overlap across parallel jobs, so the sums can exceed the run's wall time.
 */

export const PROFILE_STAGES = [
  /** pdf.js / the format parser, inside the parse worker. */
  'parse',
  /** Chunking (token counting included), inside the parse worker. */
  'chunk',
  /** Handing the job to a worker and the result back (sandbox total minus parse and chunk). */
  'sandbox',
  /** Database writes: pages, chunks, job state, typed metadata. */
  'db',
  /** Embedding calls (zero when keyword-only). */
  'embed',
  /** Search-index writes (delete old points, upsert new ones). */
  'index',
] as const;

export type ProfileStage = (typeof PROFILE_STAGES)[number];

export type IngestProfile = Record<ProfileStage, number>;

export function createIngestProfile(): IngestProfile {
  return { parse: 0, chunk: 0, sandbox: 0, db: 0, embed: 0, index: 0 };
}

/** Runs `work` and adds its wall time to `stage` of `profile` (when there is one). */
export async function timed<T>(
  profile: IngestProfile | undefined,
  stage: ProfileStage,
  work: () => Promise<T>,
): Promise<T> {
  if (!profile) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    profile[stage] += performance.now() - started;
  }
}
