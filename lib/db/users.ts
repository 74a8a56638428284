import { getDb } from '@/lib/db/client';

/**
 * User accounts as the operator's CLI manages them (lib/auth/users.ts). Sign-up and sign-in go through Better
 * Auth and its adapter (lib/db/auth-adapter.ts), not through here.
 */

/** The id of the user with this email, or null. */
export async function findUserIdByEmail(email: string): Promise<string | null> {
  const user = await getDb().user.findUnique({ where: { email }, select: { id: true } });
  return user?.id ?? null;
}

/** Sets the user's email/password credential to this hash (creating the credential account if missing). */
export async function setCredentialPasswordHash({ userId, hash }: { userId: string; hash: string }): Promise<void> {
  const db = getDb();
  const updated = await db.account.updateMany({
    where: { userId, providerId: 'credential' },
    data: { password: hash },
  });
  if (updated.count === 0) {
    await db.account.create({
      data: { id: crypto.randomUUID(), accountId: userId, providerId: 'credential', userId, password: hash },
    });
  }
}

/** Signs the user out everywhere. */
export async function deleteUserSessions({ userId }: { userId: string }): Promise<void> {
  await getDb().session.deleteMany({ where: { userId } });
}
