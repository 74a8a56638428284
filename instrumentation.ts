/** Runs once when the Node.js server starts: resumes ingestion (jobs left by a stopped server included). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startIngestWorkerOnce } = await import('@/lib/services');
  try {
    await startIngestWorkerOnce();
  } catch (error) {
    console.error('[docuchat] the ingest worker could not start; uploads will wait until it can', error);
  }
}
