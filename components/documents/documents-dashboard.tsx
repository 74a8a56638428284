'use client';

import { EmptyState } from '@/components/empty-state';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';

export function DocumentsDashboard({
  initialDocuments,
}: {
  initialDocuments: DocumentSummary[];
  initialBuckets: BucketSummary[];
}) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Documents</h1>
        <p className="mt-1 text-sm text-slate-600">Everything DocuChat answers from. Only you can see these.</p>
      </div>
      {initialDocuments.length === 0 ? (
        <EmptyState title="No documents yet">
          Start by uploading the documents you want to ask about: PDF, Word (DOCX), Excel (XLSX), CSV, HTML, Markdown or
          plain text.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {initialDocuments.map((d) => (
            <li key={d.id} className="px-4 py-3 text-sm">
              {d.filename}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
