import type { DocumentSummary } from '@/lib/db/documents';
import { plural } from './document-view';

/** The page title and, once there are documents, how many there are, are indexed and are processing. */
export function LibraryHeader({
  documents,
  processing,
}: {
  documents: readonly DocumentSummary[];
  processing: number;
}) {
  const indexedCount = documents.filter((d) => d.status === 'INDEXED').length;
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Documents</h1>
        <p className="mt-1 text-sm text-slate-600">Everything DocuChat answers from. Only you can see these.</p>
      </div>
      {documents.length > 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" data-testid="library-summary">
          {processing > 0 ? (
            <span className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-2.5 py-1 text-xs font-medium text-brand-700">
              <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-brand-500" aria-hidden="true" />
              {processing} processing
            </span>
          ) : null}
          <span>
            {plural(documents.length, 'document')} · {indexedCount} indexed
          </span>
        </p>
      ) : null}
    </div>
  );
}
