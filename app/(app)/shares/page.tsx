import type { Metadata } from 'next';
import { SharesList } from '@/components/share/shares-list';
import { requireUserForPage } from '@/lib/auth/session';
import { getConfig } from '@/lib/config';
import { listShares } from '@/lib/db/shares';

export const metadata: Metadata = { title: 'Shared links' };

export default async function SharesPage() {
  const user = await requireUserForPage('/shares');
  const appUrl = getConfig().appUrl;
  const shares = (await listShares({ ownerId: user.id })).map((s) => ({ ...s, url: `${appUrl}/share/${s.slug}` }));
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Shared links</h1>
      <p className="mt-1 text-sm text-slate-600">
        Read-only snapshots of answers. Anyone with a link sees the answer and the quoted passages, nothing else. Revoke
        a link to make it answer “not available”.
      </p>
      <div className="mt-6">
        <SharesList initialShares={shares} />
      </div>
    </main>
  );
}
