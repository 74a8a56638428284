import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState } from '@/components/empty-state';
import { requireUserForPage } from '@/lib/auth/session';
import { countIndexedDocuments } from '@/lib/db/documents';

export const metadata: Metadata = { title: 'Chat' };

export default async function ChatPage() {
  const user = await requireUserForPage('/chat');
  const indexed = await countIndexedDocuments({ ownerId: user.id });
  return (
    <main className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Chat</h1>
      {indexed === 0 ? (
        <EmptyState
          title="Upload documents first"
          action={
            <Link
              href="/documents"
              className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
            >
              Go to Documents
            </Link>
          }
        >
          Answers come only from your own documents. Upload a PDF, Word, spreadsheet, HTML, Markdown or text file, wait
          until it shows <strong>Indexed</strong>, then come back to ask about it.
        </EmptyState>
      ) : (
        <p className="text-sm text-slate-600">{indexed} documents are ready to be asked about.</p>
      )}
    </main>
  );
}
