import { ensureDbReady, getDbHandle } from '@/lib/db/client';

/**
 * The database's process lifecycle for code outside lib/db: get it ready, ask which engine it is, check it
 * answers, let it go. Nothing here reads or writes rows.
 */

export { ensureDbReady };

export function databaseProvider(): 'sqlite' | 'postgresql' {
  return getDbHandle().provider;
}

/** One round trip to the database (readiness included); throws when it does not answer. */
export async function pingDatabase(): Promise<void> {
  await ensureDbReady();
  await getDbHandle().db.$queryRawUnsafe('SELECT 1');
}

/** Closes the process's connections (for CLI scripts before they exit). */
export async function disconnectDb(): Promise<void> {
  await getDbHandle().db.$disconnect();
}
