'use client';

import clsx from 'clsx';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { FolderIcon, InboxIcon, ListIcon, PencilIcon, PlusIcon, StackIcon, TrashIcon } from '@/components/icons';
import { Button } from '@/components/ui/button';
import type { BucketSummary } from '@/lib/db/buckets';
import { BUCKET_NAME_MAX, validateBucketName } from './bucket-names';
import { BucketSchemaDialog } from './bucket-schema-dialog';
import type { BucketFilter } from './document-view';

/** The result of a create or rename: null on success, or a message to show beside the name field. */
export type BucketSaveResult = string | null;

function FilterButton({
  active,
  onClick,
  icon,
  label,
  count,
  testId,
  bucketName,
}: {
  active: boolean;
  onClick: () => void;
  icon: ReactNode;
  label: string;
  count: number;
  testId: string;
  bucketName?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={active}
      data-testid={testId}
      data-bucket-name={bucketName}
      title={label}
      className={clsx(
        'flex w-full min-w-0 items-center gap-2.5 rounded-lg px-2.5 py-2 text-left text-sm transition-colors',
        active ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-700 hover:bg-slate-100',
      )}
    >
      <span className={clsx(active ? 'text-brand-600' : 'text-slate-400')}>{icon}</span>
      <bdi className="min-w-0 flex-1 truncate">{label}</bdi>
      <span
        className={clsx(
          'rounded-full px-1.5 text-xs tabular-nums',
          active ? 'bg-brand-100 text-brand-700' : 'bg-slate-100 text-slate-500',
        )}
      >
        {count}
      </span>
    </button>
  );
}

function RenameForm({
  bucket,
  buckets,
  onRename,
  onDone,
}: {
  bucket: BucketSummary;
  buckets: readonly BucketSummary[];
  onRename: (id: string, name: string) => Promise<BucketSaveResult>;
  onDone: () => void;
}) {
  const inputId = useId();
  const errorId = useId();
  const [name, setName] = useState(bucket.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.select();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === bucket.name) {
      onDone();
      return;
    }
    const problem = validateBucketName(name, buckets, bucket.id);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    const result = await onRename(bucket.id, name.trim());
    setBusy(false);
    if (result) setError(result);
    else onDone();
  }

  return (
    <form onSubmit={submit} className="rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200">
      <label htmlFor={inputId} className="sr-only">
        New name for the bucket
      </label>
      <input
        ref={inputRef}
        id={inputId}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone();
          }
        }}
        maxLength={BUCKET_NAME_MAX + 20}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
      />
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 flex justify-end gap-1.5">
        <Button size="sm" variant="ghost" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button size="sm" type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The buckets side panel: filter by all / no bucket / one bucket (with live counts), create a bucket, rename
 * in place and delete (the caller confirms). Name problems are shown inline beside the field.
 */
export function BucketsPanel({
  buckets,
  counts,
  total,
  filter,
  onFilter,
  onCreate,
  onRename,
  onDelete,
}: {
  buckets: readonly BucketSummary[];
  counts: Map<string, number>;
  total: number;
  filter: BucketFilter;
  onFilter: (filter: BucketFilter) => void;
  onCreate: (name: string) => Promise<BucketSaveResult>;
  onRename: (id: string, name: string) => Promise<BucketSaveResult>;
  onDelete: (bucket: BucketSummary) => void;
}) {
  const createId = useId();
  const createErrorId = useId();
  const [newName, setNewName] = useState('');
  const [createError, setCreateError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [schemaFor, setSchemaFor] = useState<BucketSummary | null>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    const problem = validateBucketName(newName, buckets);
    if (problem) {
      setCreateError(problem);
      return;
    }
    setCreating(true);
    const result = await onCreate(newName.trim());
    setCreating(false);
    if (result) setCreateError(result);
    else setNewName('');
  }

  return (
    <section aria-labelledby="buckets-heading" className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
      <h2
        id="buckets-heading"
        className="px-2.5 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase"
      >
        Buckets
      </h2>
      <ul className="flex flex-col gap-0.5" aria-label="Filter by bucket">
        <li>
          <FilterButton
            active={filter === 'all'}
            onClick={() => onFilter('all')}
            icon={<StackIcon />}
            label="All documents"
            count={total}
            testId="bucket-filter-all"
          />
        </li>
        <li>
          <FilterButton
            active={filter === 'none'}
            onClick={() => onFilter('none')}
            icon={<InboxIcon />}
            label="No bucket"
            count={counts.get('none') ?? 0}
            testId="bucket-filter-none"
          />
        </li>
        {buckets.map((bucket) => {
          const active = typeof filter === 'object' && filter.id === bucket.id;
          if (renaming === bucket.id) {
            return (
              <li key={bucket.id}>
                <RenameForm bucket={bucket} buckets={buckets} onRename={onRename} onDone={() => setRenaming(null)} />
              </li>
            );
          }
          return (
            <li key={bucket.id} className="group flex items-center gap-0.5" data-testid="bucket-item">
              <div className="min-w-0 flex-1">
                <FilterButton
                  active={active}
                  onClick={() => onFilter({ id: bucket.id })}
                  icon={<FolderIcon />}
                  label={bucket.name}
                  count={counts.get(bucket.id) ?? 0}
                  testId="bucket-filter"
                  bucketName={bucket.name}
                />
              </div>
              <button
                type="button"
                onClick={() => setSchemaFor(bucket)}
                aria-label={`Typed fields of bucket ${bucket.name}`}
                title="Typed fields"
                className="rounded-md p-1.5 text-slate-400 transition-colors hover:bg-slate-100 hover:text-slate-700 lg:opacity-60 lg:group-hover:opacity-100 lg:focus-visible:opacity-100"
              >
                <ListIcon />
              </button>
              <button
                type="button"
                onClick={() => setRenaming(bucket.id)}
                aria-label={`Rename bucket ${bucket.name}`}
                title="Rename"
                className="rounded-md p-1.5 text-slate-400 transition-colors hover:bg-slate-100 hover:text-slate-700 lg:opacity-60 lg:group-hover:opacity-100 lg:focus-visible:opacity-100"
              >
                <PencilIcon />
              </button>
              <button
                type="button"
                onClick={() => onDelete(bucket)}
                aria-label={`Delete bucket ${bucket.name}`}
                title="Delete"
                className="rounded-md p-1.5 text-slate-400 transition-colors hover:bg-red-50 hover:text-red-600 lg:opacity-60 lg:group-hover:opacity-100 lg:focus-visible:opacity-100"
              >
                <TrashIcon />
              </button>
            </li>
          );
        })}
      </ul>
      {buckets.length === 0 ? (
        <p className="px-2.5 pt-2 text-xs leading-5 text-slate-500">
          Buckets group documents (a client, a project, a year) so Chat can search just one of them.
        </p>
      ) : null}
      <form onSubmit={create} className="mt-3 border-t border-slate-100 px-1 pt-3">
        <label htmlFor={createId} className="px-1.5 text-xs font-medium text-slate-600">
          New bucket
        </label>
        <div className="mt-1.5 flex gap-1.5">
          <input
            id={createId}
            value={newName}
            onChange={(event) => {
              setNewName(event.target.value);
              setCreateError(null);
            }}
            placeholder="e.g. Contracts"
            maxLength={BUCKET_NAME_MAX + 20}
            aria-invalid={createError ? true : undefined}
            aria-describedby={createError ? createErrorId : undefined}
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
          />
          <Button type="submit" size="sm" variant="secondary" disabled={creating} aria-label="Create bucket">
            <PlusIcon />
            <span>{creating ? 'Creating…' : 'Create'}</span>
          </Button>
        </div>
        {createError ? (
          <p id={createErrorId} className="mt-1.5 px-1.5 text-xs text-red-700">
            {createError}
          </p>
        ) : null}
      </form>
      {schemaFor ? <BucketSchemaDialog bucket={schemaFor} onClose={() => setSchemaFor(null)} /> : null}
    </section>
  );
}
