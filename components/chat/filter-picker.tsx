'use client';

import clsx from 'clsx';
import { useEffect, useId, useRef, useState } from 'react';
import { FilterIcon, XIcon } from '@/components/icons';
import type { MetaField, MetaFilterInput } from '@/lib/domain/typed-meta';
import { TypedFilterEditor } from './typed-filter-editor';

export interface BucketOption {
  id: string;
  name: string;
  documentCount: number;
  /** Typed fields the bucket declares (filterable with operators). */
  metaFields?: MetaField[];
}

export interface DocumentOption {
  id: string;
  filename: string;
  bucketId: string | null;
}

export interface ChatFilters {
  bucketIds: string[];
  documentIds: string[];
  /** Typed filters on the buckets' fields (absent = none). */
  meta?: MetaFilterInput[];
}

/** Typed fields of the selected buckets (of every bucket when none is selected); a name typed differently is left out. */
function typedFieldsInScope(buckets: BucketOption[], selected: string[]): MetaField[] {
  const scope = selected.length > 0 ? buckets.filter((b) => selected.includes(b.id)) : buckets;
  const byName = new Map<string, MetaField | null>();
  for (const field of scope.flatMap((b) => b.metaFields ?? [])) {
    const seen = byName.get(field.name);
    if (seen === undefined) byName.set(field.name, field);
    else if (seen && seen.type !== field.type) byName.set(field.name, null);
  }
  return [...byName.values()].filter((f): f is MetaField => f !== null);
}

function toggle(list: string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/** Chips of the active filters, each removable. */
export function FilterChips({
  filters,
  buckets,
  documents,
  onChange,
}: {
  filters: ChatFilters;
  buckets: BucketOption[];
  documents: DocumentOption[];
  onChange: (f: ChatFilters) => void;
}) {
  const chips = [
    ...filters.bucketIds.map((id) => ({
      id,
      kind: 'bucket' as const,
      label: buckets.find((b) => b.id === id)?.name ?? 'bucket',
    })),
    ...filters.documentIds.map((id) => ({
      id,
      kind: 'document' as const,
      label: documents.find((d) => d.id === id)?.filename ?? 'document',
    })),
  ];
  if (chips.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-1.5 px-3 pt-2" data-testid="filter-chips">
      <span className="text-xs text-slate-500">Only in:</span>
      {chips.map((c) => (
        <span
          key={`${c.kind}-${c.id}`}
          className="inline-flex max-w-[14rem] items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2 text-xs text-brand-800 ring-1 ring-brand-200"
        >
          <span className="truncate">{c.label}</span>
          <button
            type="button"
            onClick={() =>
              onChange(
                c.kind === 'bucket'
                  ? { ...filters, bucketIds: filters.bucketIds.filter((x) => x !== c.id) }
                  : { ...filters, documentIds: filters.documentIds.filter((x) => x !== c.id) },
              )
            }
            className="rounded-full p-0.5 hover:bg-brand-100"
            aria-label={`Remove filter ${c.label}`}
          >
            <XIcon className="h-3 w-3" />
          </button>
        </span>
      ))}
    </div>
  );
}

/** A popover with bucket and document checkboxes limiting where the agent searches. */
export function FilterPicker({
  filters,
  buckets,
  documents,
  onChange,
}: {
  filters: ChatFilters;
  buckets: BucketOption[];
  documents: DocumentOption[];
  onChange: (f: ChatFilters) => void;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const popId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const count = filters.bucketIds.length + filters.documentIds.length + (filters.meta?.length ?? 0);
  const typedFields = typedFieldsInScope(buckets, filters.bucketIds);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && e.target instanceof Node && !rootRef.current.contains(e.target)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const q = query.trim().toLowerCase();
  const shown = q ? documents.filter((d) => d.filename.toLowerCase().includes(q)) : documents;

  return (
    <div ref={rootRef} className="relative">
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={popId}
        className={clsx(
          'inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium',
          count > 0 ? 'bg-brand-50 text-brand-800 ring-1 ring-brand-200' : 'text-slate-600 hover:bg-slate-100',
        )}
      >
        <FilterIcon className="h-3.5 w-3.5" /> Filters{count > 0 ? ` (${count})` : ''}
      </button>
      {open ? (
        <section
          id={popId}
          className="absolute bottom-full left-0 z-30 mb-2 w-80 rounded-lg border border-slate-200 bg-white p-3 shadow-xl"
          aria-label="Search filters"
        >
          {buckets.length > 0 ? (
            <fieldset className="mb-3">
              <legend className="mb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-slate-400">
                Buckets
              </legend>
              <div className="max-h-32 space-y-0.5 overflow-y-auto">
                {buckets.map((b) => (
                  <label
                    key={b.id}
                    className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-slate-50"
                  >
                    <input
                      type="checkbox"
                      checked={filters.bucketIds.includes(b.id)}
                      onChange={() => onChange({ ...filters, bucketIds: toggle(filters.bucketIds, b.id) })}
                      className="accent-brand-600"
                    />
                    <span className="min-w-0 flex-1 truncate">{b.name}</span>
                    <span className="text-xs text-slate-400">{b.documentCount}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          {typedFields.length > 0 ? (
            <TypedFilterEditor
              fields={typedFields}
              value={filters.meta ?? []}
              onChange={(meta) => onChange({ ...filters, meta })}
            />
          ) : null}
          <fieldset>
            <legend className="mb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-slate-400">
              Documents
            </legend>
            {documents.length > 8 ? (
              <input
                type="search"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                placeholder="Find a document"
                aria-label="Find a document"
                className="mb-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
              />
            ) : null}
            <div className="max-h-48 space-y-0.5 overflow-y-auto">
              {shown.length === 0 ? (
                <p className="px-1 py-1 text-sm text-slate-500">No indexed documents match.</p>
              ) : null}
              {shown.map((d) => (
                <label
                  key={d.id}
                  className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-slate-50"
                >
                  <input
                    type="checkbox"
                    checked={filters.documentIds.includes(d.id)}
                    onChange={() => onChange({ ...filters, documentIds: toggle(filters.documentIds, d.id) })}
                    className="accent-brand-600"
                  />
                  <span className="min-w-0 flex-1 truncate" title={d.filename}>
                    {d.filename}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="mt-3 flex items-center justify-between border-t border-slate-100 pt-2">
            <p className="text-xs text-slate-500">
              {count === 0 ? 'Searching all documents' : 'Only the selected are searched'}
            </p>
            {count > 0 ? (
              <button
                type="button"
                onClick={() => onChange({ bucketIds: [], documentIds: [], meta: [] })}
                className="text-xs font-medium text-brand-700 hover:underline"
              >
                Clear
              </button>
            ) : null}
          </div>
        </section>
      ) : null}
    </div>
  );
}
