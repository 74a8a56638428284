import { getAuth } from '@/lib/auth/auth';
import { deleteUserSessions, findUserIdByEmail, setCredentialPasswordHash } from '@/lib/db/users';
import { AppError } from '@/lib/errors';

/** Creates an email/password user through Better Auth (same hashing and rows as the sign-up page). */
export async function createUser({ email, password, name }: { email: string; password: string; name: string }) {
  if (await findUserIdByEmail(email))
    throw new AppError('conflict:auth', `A user with the email ${email} already exists.`);
  const result = await getAuth().api.signUpEmail({ body: { email, password, name } });
  return { id: result.user.id, email: result.user.email };
}

/** Sets a new password for an existing user and signs out all of their sessions. */
export async function resetPassword({ email, password }: { email: string; password: string }): Promise<void> {
  const userId = await findUserIdByEmail(email);
  if (!userId) throw new AppError('not_found:auth', `No user with the email ${email}.`);
  const context = await getAuth().$context;
  const hash = await context.password.hash(password);
  await setCredentialPasswordHash({ userId, hash });
  await deleteUserSessions({ userId });
}
