import type { Metadata } from 'next';
import { DocumentsDashboard } from '@/components/documents/documents-dashboard';
import { requireUserForPage } from '@/lib/auth/session';
import { getConfig } from '@/lib/config';
import { listBuckets } from '@/lib/db/buckets';
import { listDocuments } from '@/lib/db/documents';

export const metadata: Metadata = { title: 'Documents' };

export default async function DocumentsPage() {
  const user = await requireUserForPage('/documents');
  const [documents, buckets] = await Promise.all([
    listDocuments({ ownerId: user.id }),
    listBuckets({ ownerId: user.id }),
  ]);
  return (
    <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <DocumentsDashboard initialDocuments={documents} initialBuckets={buckets} quota={getConfig().quota} />
    </main>
  );
}
