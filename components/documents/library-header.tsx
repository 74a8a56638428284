import clsx from 'clsx';
import type { DocumentStatus } from '@/lib/db/documents';
import { librarySummary, type StatusCounts } from './document-view';

const TONE: Record<DocumentStatus, string> = {
  PENDING: 'bg-slate-100 text-slate-700',
  PROCESSING: 'bg-brand-50 text-brand-700',
  INDEXED: 'bg-emerald-50 text-emerald-700',
  FAILED: 'bg-red-50 text-red-700',
};

/**
 * The page title and, once there are documents, how many there are per status: the same counts and words as the
 * status filter (see librarySummary), for the whole library.
 */
export function LibraryHeader({ counts }: { counts: StatusCounts }) {
  const summary = librarySummary(counts);
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Documents</h1>
        <p className="mt-1 text-sm text-slate-600">Everything DocuChat answers from. Only you can see these.</p>
      </div>
      {counts.all > 0 ? (
        <p className="flex flex-wrap items-center gap-1.5 text-sm text-slate-600" data-testid="library-summary">
          <span className="mr-1">{summary.total}</span>
          {summary.parts.map((part) => (
            <span
              key={part.status}
              data-testid={`library-count-${part.status}`}
              className={clsx(
                'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium',
                TONE[part.status],
              )}
            >
              {part.status === 'PROCESSING' ? (
                <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-brand-500" aria-hidden="true" />
              ) : null}
              {part.text}
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
