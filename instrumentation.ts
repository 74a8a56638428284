/**
 * Runs once when the Node.js server starts: stamps requests with their socket address, starts the event-loop delay
 * monitor, warns when APP_URL's port is not the server's, marks answers a stopped server left running as
 * interrupted, resumes ingestion (jobs left by a stopped server included), and once per data folder copies typed
 * values into a chunk index written before it held them.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // first: the socket's address for rate limits, before any request is handled (lib/net/peer-address.ts)
  const { installPeerAddressStamp } = await import('@/lib/net/peer-address');
  installPeerAddressStamp();
  const { startIngestWorkerOnce } = await import('@/lib/services');
  const { markInterruptedAnswers } = await import('@/lib/db/answers');
  const { startEventLoopMonitor } = await import('@/lib/event-loop');
  startEventLoopMonitor();
  const { appUrlPortWarning, getConfig } = await import('@/lib/config');
  const portWarning = appUrlPortWarning(getConfig());
  if (portWarning) console.warn(`[docuchat] warning: ${portWarning}`);
  const { databaseProvider, ensureDbReady } = await import('@/lib/db/lifecycle');
  try {
    await ensureDbReady();
    // One server owns an embedded SQLite database, so whatever is still "running" died with the last process.
    // With PostgreSQL other instances may be mid-run: only runs older than the agent's wall-clock limit are dead.
    const olderThan = databaseProvider() === 'sqlite' ? 0 : getConfig().agent.wallClockMs + 60_000;
    const marked = await markInterruptedAnswers(olderThan);
    if (marked) console.log(`[docuchat] marked ${marked} interrupted answer(s)`);
  } catch (error) {
    console.error('[docuchat] could not check for interrupted answers', error);
  }
  // Keep trying until the worker runs (e.g. the index folder was briefly unavailable): uploads wait queued meanwhile.
  const start = async () => {
    try {
      await startIngestWorkerOnce();
    } catch (error) {
      console.error('[docuchat] the ingest worker could not start; retrying in 10 s (uploads wait queued)', error);
      setTimeout(start, 10_000).unref();
    }
  };
  await start();
  // In the background: the server answers meanwhile (typed filters miss not-yet-copied documents until it ends).
  void (async () => {
    const { backfillTypedIndexOnce } = await import('@/lib/documents/backfill-typed-index');
    const { getManageDeps } = await import('@/lib/services');
    await backfillTypedIndexOnce({ dataDir: getConfig().dataDir, deps: await getManageDeps() });
  })().catch((error) => console.error('[docuchat] copying typed values into the index failed', error));
}
