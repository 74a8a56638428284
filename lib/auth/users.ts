import { getAuth } from '@/lib/auth/auth';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';

/** Creates an email/password user through Better Auth (same hashing and rows as the sign-up page). */
export async function createUser({ email, password, name }: { email: string; password: string; name: string }) {
  const existing = await getDb().user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new AppError('conflict:auth', `A user with the email ${email} already exists.`);
  const result = await getAuth().api.signUpEmail({ body: { email, password, name } });
  return { id: result.user.id, email: result.user.email };
}

/** Sets a new password for an existing user and signs out all of their sessions. */
export async function resetPassword({ email, password }: { email: string; password: string }): Promise<void> {
  const db = getDb();
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) throw new AppError('not_found:auth', `No user with the email ${email}.`);
  const context = await getAuth().$context;
  const hash = await context.password.hash(password);
  const updated = await db.account.updateMany({
    where: { userId: user.id, providerId: 'credential' },
    data: { password: hash },
  });
  if (updated.count === 0) {
    await db.account.create({
      data: { id: crypto.randomUUID(), accountId: user.id, providerId: 'credential', userId: user.id, password: hash },
    });
  }
  await db.session.deleteMany({ where: { userId: user.id } });
}
