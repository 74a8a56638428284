import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppHeader } from '@/components/app-header';
import { getSessionUser } from '@/lib/auth/session';

/** Signed-in area. Each page also checks the session itself; this layout only renders the shell. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser();
  if (!user) redirect('/sign-in');
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader email={user.email} name={user.name} />
      <div className="flex-1">{children}</div>
    </div>
  );
}
