import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuth } from '@/lib/auth/auth';
import { safeNextPath } from '@/lib/auth/safe-next';
import { ensureDbReady } from '@/lib/db/lifecycle';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** The signed-in user for the current request, or null. Reads the session from the database every time. */
export async function getSessionUser(requestHeaders?: Headers): Promise<SessionUser | null> {
  await ensureDbReady();
  const session = await getAuth().api.getSession({ headers: requestHeaders ?? (await headers()) });
  if (!session) return null;
  return { id: session.user.id, email: session.user.email, name: session.user.name };
}

/** For pages: the signed-in user, or a redirect to sign-in that comes back to `next`. */
export async function requireUserForPage(next: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(safeNextPath(next))}`);
  return user;
}

export { safeNextPath } from '@/lib/auth/safe-next';
