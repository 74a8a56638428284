'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { SearchIcon } from '@/components/icons';
import { Button } from '@/components/ui/button';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import { DocumentRow, type DocumentRowActions } from './document-row';
import { type PipelineConfig, plural } from './document-view';

/**
 * The document list: a header with select-all and, while something is selected, the bulk bar (move to a
 * bucket, delete); then one row per shown document, or a hint when the filters leave nothing.
 */
export function DocumentList({
  documents,
  total,
  filtered,
  buckets,
  selected,
  busy,
  bulkBusy,
  highlight,
  pipeline,
  actions,
  onSelectAll,
  onClearSelection,
  onMoveSelected,
  onDeleteSelected,
  onClearFilters,
}: {
  /** The documents shown (already filtered). */
  documents: readonly DocumentSummary[];
  /** How many the user has in all. */
  total: number;
  filtered: boolean;
  buckets: readonly BucketSummary[];
  selected: ReadonlySet<string>;
  busy: ReadonlySet<string>;
  bulkBusy: boolean;
  highlight: string | null;
  pipeline: PipelineConfig;
  actions: DocumentRowActions;
  onSelectAll: (ids: string[], selected: boolean) => void;
  onClearSelection: () => void;
  onMoveSelected: (bucketId: string | null) => Promise<boolean>;
  onDeleteSelected: () => void;
  onClearFilters: () => void;
}) {
  const targetId = useId();
  const [target, setTarget] = useState('');
  const selectedCount = documents.filter((d) => selected.has(d.id)).length;
  const allSelected = documents.length > 0 && selectedCount === documents.length;
  const selectAllRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = selectedCount > 0 && !allSelected;
  });

  async function move() {
    if (!target) return;
    if (await onMoveSelected(target === 'none' ? null : target)) setTarget('');
  }

  return (
    <section
      aria-label="Document list"
      className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex min-h-12 flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-100 bg-slate-50/70 px-4 py-2">
        <input
          ref={selectAllRef}
          type="checkbox"
          checked={allSelected}
          disabled={documents.length === 0}
          onChange={(event) =>
            onSelectAll(
              documents.map((d) => d.id),
              event.target.checked,
            )
          }
          aria-label="Select all shown documents"
          className="h-4 w-4 cursor-pointer rounded border-slate-300 accent-brand-600"
        />
        {selectedCount > 0 ? (
          <div className="flex flex-1 flex-wrap items-center gap-2" data-testid="bulk-actions">
            <span className="text-sm font-medium text-slate-800">{selectedCount} selected</span>
            <label htmlFor={targetId} className="sr-only">
              Move selected to
            </label>
            <select
              id={targetId}
              value={target}
              onChange={(event) => setTarget(event.target.value)}
              className="max-w-[12rem] truncate rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-xs shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
            >
              <option value="">Move to…</option>
              <option value="none">No bucket</option>
              {buckets.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
            <Button size="sm" variant="secondary" onClick={move} disabled={!target || bulkBusy}>
              {bulkBusy ? 'Working…' : 'Move'}
            </Button>
            <Button size="sm" variant="danger" onClick={onDeleteSelected} disabled={bulkBusy}>
              Delete
            </Button>
            <Button size="sm" variant="ghost" className="ml-auto" onClick={onClearSelection}>
              Clear selection
            </Button>
          </div>
        ) : (
          <p className="text-sm text-slate-600">
            {filtered ? `${documents.length} of ${plural(total, 'document')}` : plural(total, 'document')}
          </p>
        )}
      </div>

      {documents.length > 0 ? (
        <ul className="divide-y divide-slate-100" data-testid="document-list">
          {documents.map((doc) => (
            <DocumentRow
              key={doc.id}
              doc={doc}
              buckets={buckets}
              selected={selected.has(doc.id)}
              busy={busy.has(doc.id) || bulkBusy}
              highlighted={highlight === doc.id}
              pipeline={pipeline}
              actions={actions}
            />
          ))}
        </ul>
      ) : (
        <div className="flex flex-col items-center px-6 py-14 text-center">
          <span className="mb-3 flex h-11 w-11 items-center justify-center rounded-full bg-slate-100 text-slate-500">
            <SearchIcon className="h-5 w-5" />
          </span>
          <p className="text-sm font-medium text-slate-900">
            {total === 0 ? 'Your uploads appear here' : 'Nothing matches these filters'}
          </p>
          <p className="mt-1 max-w-sm text-sm text-slate-500">
            {total === 0
              ? 'Each file shows its progress through parsing, chunking and indexing.'
              : 'Try another status, bucket or name, or show everything again.'}
          </p>
          {filtered && total > 0 ? (
            <Button size="sm" variant="secondary" className="mt-4" onClick={onClearFilters}>
              Clear filters
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}
