'use client';

import clsx from 'clsx';
import { memo, useId } from 'react';
import { Button } from '@/components/ui/button';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import {
  describeIndexed,
  fileKind,
  fileKindLabel,
  formatBytes,
  formatDate,
  isRunning,
  percent,
  stageLabel,
} from './document-view';
import { AlertIcon, CheckIcon, FileKindTile, PencilIcon, RefreshIcon, StopIcon, TrashIcon } from './icons';
import { ProgressBar } from './progress-bar';

export interface DocumentRowActions {
  onSelect: (id: string, selected: boolean) => void;
  onMove: (doc: DocumentSummary, bucketId: string | null) => void;
  onEdit: (doc: DocumentSummary) => void;
  onDelete: (doc: DocumentSummary) => void;
  onReindex: (doc: DocumentSummary) => void;
  onCancel: (doc: DocumentSummary) => void;
}

function StatusBlock({ doc }: { doc: DocumentSummary }) {
  if (doc.status === 'INDEXED') {
    return (
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-inset ring-emerald-200">
            <CheckIcon className="h-3.5 w-3.5" />
            Indexed
          </span>
          {doc.vectorsPending ? (
            <span
              className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-200"
              title="Searchable by keywords now; gets vectors for semantic search when an embedding model is reachable."
            >
              Keyword only
            </span>
          ) : null}
        </div>
        <p className="text-xs text-slate-600 tabular-nums" data-testid="document-counts">
          {describeIndexed(doc)}
        </p>
      </div>
    );
  }
  if (doc.status === 'FAILED') {
    const reason = doc.error ?? 'Processing failed for an unknown reason.';
    return (
      <div className="flex min-w-0 flex-col gap-1">
        <span className="inline-flex w-fit items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-200">
          <AlertIcon className="h-3.5 w-3.5" />
          Failed
        </span>
        <p className="line-clamp-2 text-xs break-words text-red-700" title={reason} data-testid="document-error">
          {reason}
        </p>
      </div>
    );
  }
  const queued = doc.status === 'PENDING';
  const label = queued ? 'Queued' : stageLabel(doc.stage);
  const value = queued ? null : doc.progress;
  const text = queued ? 'Queued, waiting to start' : `${label}, ${percent(doc.progress)}%`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-slate-700" data-testid="document-stage">
          {label}
          {queued ? null : '…'}
        </span>
        {queued ? (
          <span className="text-slate-500">waiting</span>
        ) : (
          <span className="text-slate-500 tabular-nums">{percent(doc.progress)}%</span>
        )}
      </div>
      <ProgressBar value={value} label={`Processing ${doc.filename}`} valueText={text} tone="brand" />
    </div>
  );
}

/**
 * One document: file type, name (always plain text, truncated, full name on hover), metadata summary, its live
 * state (stage and progress while running, counts when indexed, the reason when failed) and its actions.
 */
export const DocumentRow = memo(function DocumentRow({
  doc,
  buckets,
  selected,
  busy,
  highlighted,
  actions,
}: {
  doc: DocumentSummary;
  buckets: readonly BucketSummary[];
  selected: boolean;
  busy: boolean;
  highlighted: boolean;
  actions: DocumentRowActions;
}) {
  const nameId = useId();
  const kind = fileKind(doc.mime, doc.filename);
  const bucket = doc.bucketId ? buckets.find((b) => b.id === doc.bucketId) : undefined;
  const { title, documentDate, tags, fields } = doc.metadata;
  const fieldCount = Object.keys(fields).length;
  const running = isRunning(doc);

  return (
    <li
      id={`document-${doc.id}`}
      data-testid="document-row"
      data-status={doc.status}
      data-stage={doc.stage}
      data-filename={doc.filename}
      aria-labelledby={nameId}
      className={clsx(
        'group relative flex flex-wrap items-start gap-x-3 gap-y-3 px-4 py-3.5 transition-colors sm:flex-nowrap sm:items-center',
        selected ? 'bg-brand-50/60' : 'hover:bg-slate-50/80',
        highlighted && 'animate-pulse bg-amber-50 ring-2 ring-amber-300 ring-inset',
      )}
    >
      <input
        type="checkbox"
        checked={selected}
        onChange={(event) => actions.onSelect(doc.id, event.target.checked)}
        aria-label="Select document"
        aria-describedby={nameId}
        className="mt-3 h-4 w-4 flex-none cursor-pointer rounded border-slate-300 accent-brand-600 sm:mt-0"
      />
      <FileKindTile kind={kind} />
      <div className="min-w-0 flex-1 basis-[calc(100%-5rem)] sm:basis-auto">
        <p
          id={nameId}
          className="truncate text-sm font-medium text-slate-900"
          title={doc.filename}
          data-testid="document-name"
        >
          <bdi>{doc.filename}</bdi>
        </p>
        {title ? (
          <p className="truncate text-sm text-slate-600" title={title} data-testid="document-title">
            <bdi>{title}</bdi>
          </p>
        ) : null}
        <div className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
          <span>{fileKindLabel(kind)}</span>
          <span aria-hidden="true">·</span>
          <span className="tabular-nums">{formatBytes(doc.size)}</span>
          {documentDate ? (
            <>
              <span aria-hidden="true">·</span>
              <span>
                <span className="sr-only">Document date </span>
                {formatDate(documentDate)}
              </span>
            </>
          ) : null}
          {bucket ? (
            <>
              <span aria-hidden="true">·</span>
              <span className="max-w-[12rem] truncate" title={bucket.name}>
                <span className="sr-only">Bucket </span>
                <bdi>{bucket.name}</bdi>
              </span>
            </>
          ) : null}
          {fieldCount > 0 ? (
            <>
              <span aria-hidden="true">·</span>
              <span>
                {fieldCount} {fieldCount === 1 ? 'field' : 'fields'}
              </span>
            </>
          ) : null}
          {tags.length > 0 ? (
            <ul className="flex flex-wrap gap-1" aria-label="Tags">
              {tags.slice(0, 4).map((tag) => (
                <li
                  key={tag}
                  className="max-w-[10rem] truncate rounded-full bg-slate-100 px-2 py-px text-[11px] font-medium text-slate-600 ring-1 ring-inset ring-slate-200"
                  title={tag}
                  data-testid="document-tag"
                >
                  <bdi>{tag}</bdi>
                </li>
              ))}
              {tags.length > 4 ? <li className="px-1 text-[11px] text-slate-500">+{tags.length - 4} more</li> : null}
            </ul>
          ) : null}
        </div>
      </div>

      <div className="w-full min-w-0 pl-7 sm:w-56 sm:flex-none sm:pl-0 lg:w-60" data-testid="document-status">
        <StatusBlock doc={doc} />
      </div>

      <div className="flex w-full flex-wrap items-center justify-end gap-1 sm:w-auto sm:flex-none sm:flex-nowrap">
        <label className="sr-only" htmlFor={`bucket-${doc.id}`}>
          Move to bucket
        </label>
        <select
          id={`bucket-${doc.id}`}
          value={doc.bucketId ?? ''}
          disabled={busy}
          onChange={(event) => actions.onMove(doc, event.target.value || null)}
          className="mr-auto w-36 truncate rounded-md border border-slate-200 bg-white py-1 pr-7 pl-2 text-xs text-slate-700 hover:border-slate-300 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none sm:mr-1 xl:w-40"
        >
          <option value="">No bucket</option>
          {buckets.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
        {running ? (
          <Button size="sm" variant="secondary" onClick={() => actions.onCancel(doc)} disabled={busy}>
            <StopIcon className="h-3.5 w-3.5" />
            Cancel
          </Button>
        ) : doc.status === 'FAILED' ? (
          <Button size="sm" onClick={() => actions.onReindex(doc)} disabled={busy}>
            <RefreshIcon className="h-3.5 w-3.5" />
            Retry
          </Button>
        ) : (
          <Button size="sm" variant="ghost" onClick={() => actions.onReindex(doc)} disabled={busy} title="Index again">
            <RefreshIcon className="h-3.5 w-3.5" />
            Re-index
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          onClick={() => actions.onEdit(doc)}
          disabled={busy}
          title="Title, date, tags and fields"
        >
          <PencilIcon className="h-3.5 w-3.5" />
          Details
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => actions.onDelete(doc)}
          disabled={busy}
          className="hover:bg-red-50 hover:text-red-700"
        >
          <TrashIcon className="h-3.5 w-3.5" />
          Delete
        </Button>
      </div>
    </li>
  );
});
