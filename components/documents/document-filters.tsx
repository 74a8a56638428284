'use client';

import clsx from 'clsx';
import { useId } from 'react';
import { SearchIcon, XIcon } from '@/components/icons';
import type { DocumentStatus } from '@/lib/db/documents';
import { DOCUMENT_STATUSES, type StatusCounts, type StatusFilter, statusLabel } from './document-view';

const DOT: Record<DocumentStatus, string> = {
  PENDING: 'bg-slate-400',
  PROCESSING: 'bg-brand-500',
  INDEXED: 'bg-emerald-500',
  FAILED: 'bg-red-500',
};

/** Status filter with a count per status, and the name search. */
export function DocumentFilters({
  status,
  name,
  counts,
  onStatus,
  onName,
}: {
  status: StatusFilter;
  name: string;
  counts: StatusCounts;
  onStatus: (status: StatusFilter) => void;
  onName: (name: string) => void;
}) {
  const searchId = useId();
  const options: { value: StatusFilter; label: string; count: number }[] = [
    { value: 'all', label: 'All', count: counts.all },
    ...DOCUMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s), count: counts[s] })),
  ];
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
      <fieldset className="-mx-1 flex min-w-0 gap-1 overflow-x-auto px-1 pb-1 lg:pb-0">
        <legend className="sr-only">Filter by status</legend>
        {options.map((option) => {
          const active = status === option.value;
          return (
            <button
              key={option.value}
              type="button"
              aria-pressed={active}
              data-testid={`status-filter-${option.value}`}
              onClick={() => onStatus(option.value)}
              className={clsx(
                'inline-flex flex-none items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-medium transition-colors',
                active
                  ? 'bg-slate-900 text-white shadow-sm'
                  : 'bg-white text-slate-600 ring-1 ring-slate-200 ring-inset hover:bg-slate-50 hover:text-slate-900',
              )}
            >
              {option.value !== 'all' ? (
                <span aria-hidden="true" className={clsx('h-1.5 w-1.5 rounded-full', DOT[option.value])} />
              ) : null}
              {option.label}
              <span
                className={clsx(
                  'rounded-full px-1.5 text-xs tabular-nums',
                  active ? 'bg-white/20 text-white' : 'bg-slate-100 text-slate-500',
                )}
              >
                {option.count}
              </span>
            </button>
          );
        })}
      </fieldset>
      <div className="relative lg:w-72">
        <label htmlFor={searchId} className="sr-only">
          Search by name
        </label>
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
        <input
          id={searchId}
          type="search"
          value={name}
          onChange={(event) => onName(event.target.value)}
          placeholder="Search by name or title"
          maxLength={200}
          className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-8 pl-9 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none [&::-webkit-search-cancel-button]:hidden"
        />
        {name ? (
          <button
            type="button"
            onClick={() => onName('')}
            className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-0.5 text-slate-400 hover:text-slate-700"
            aria-label="Clear search"
          >
            <XIcon className="h-3.5 w-3.5" />
          </button>
        ) : null}
      </div>
    </div>
  );
}
