import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { getConfig } from '@/lib/config';
import { PrismaClient as PostgresClient } from '@/lib/generated/postgres/client';
import { PrismaClient as SqliteClient } from '@/lib/generated/sqlite/client';

/**
 * The database client. Both generated clients come from one data model (prisma/schema.base.prisma), so they
 * expose the same model API; the SQLite client's type is used everywhere as the common denominator (anything
 * that type-checks against it runs on PostgreSQL too).
 */
export type Db = SqliteClient;

export interface DbHandle {
  db: Db;
  provider: 'sqlite' | 'postgresql';
}

/** Opens a client for a database URL (file:... → SQLite with WAL, postgresql://... → PostgreSQL). */
export function openDb(url: string): DbHandle {
  if (/^postgres(ql)?:/.test(url)) {
    const client = new PostgresClient({ adapter: new PrismaPg({ connectionString: url, max: 20 }) });
    // Same data model, same generated API: see the comment on Db.
    return { db: client as unknown as Db, provider: 'postgresql' };
  }
  const file = url.replace(/^file:/, '');
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const adapter = new PrismaBetterSqlite3({ url, timeout: 10_000 });
  return { db: new SqliteClient({ adapter }), provider: 'sqlite' };
}

const globalForDb = globalThis as unknown as { docuchatDb?: DbHandle; docuchatDbReady?: Promise<void> };

/** The process-wide client for the configured database. */
export function getDbHandle(): DbHandle {
  if (!globalForDb.docuchatDb) {
    globalForDb.docuchatDb = openDb(getConfig().database.url);
  }
  return globalForDb.docuchatDb;
}

export function getDb(): Db {
  return getDbHandle().db;
}

/** Applies per-connection settings once (SQLite: WAL journal so readers never wait for the ingest writer). */
export function ensureDbReady(): Promise<void> {
  globalForDb.docuchatDbReady ??= (async () => {
    const { db, provider } = getDbHandle();
    if (provider === 'sqlite') {
      await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
      await db.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
    }
  })();
  return globalForDb.docuchatDbReady;
}
