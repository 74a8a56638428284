import { prismaAdapter } from 'better-auth/adapters/prisma';
import { getDbHandle } from '@/lib/db/client';

/** Better Auth's database adapter over the process's Prisma client (users, sessions, accounts, rate limits). */
export function createAuthDatabaseAdapter() {
  const { db, provider } = getDbHandle();
  return prismaAdapter(db, { provider });
}
