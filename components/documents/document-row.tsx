'use client';

import clsx from 'clsx';
import Link from 'next/link';
import { memo, type ReactNode, useId } from 'react';
import {
  AlertIcon,
  CheckIcon,
  FolderIcon,
  PencilIcon,
  RefreshIcon,
  StopCircleIcon,
  TrashIcon,
} from '@/components/icons';
import { Button } from '@/components/ui/button';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import { usableTitle } from './display-title';
import {
  describeIndexed,
  fileKind,
  fileKindLabel,
  formatBytes,
  formatDate,
  isRunning,
  type PipelineConfig,
  percent,
  stageLabel,
  trackPosition,
  trackStages,
} from './document-view';
import { failureAdvice } from './failure-advice';
import { FileKindTile } from './file-kind-tile';
import { StageTrack } from './stage-track';

export interface DocumentRowActions {
  onSelect: (id: string, selected: boolean) => void;
  onMove: (doc: DocumentSummary, bucketId: string | null) => void;
  onEdit: (doc: DocumentSummary) => void;
  onDelete: (doc: DocumentSummary) => void;
  onReindex: (doc: DocumentSummary) => void;
  onCancel: (doc: DocumentSummary) => void;
}

/** The document view's address (the row's name links there; citations add page and chunk). */
export function documentViewHref(id: string): string {
  return `/documents/${encodeURIComponent(id)}/view`;
}

function StatusBlock({ doc, pipeline }: { doc: DocumentSummary; pipeline: PipelineConfig }) {
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
          {doc.warnings.length > 0 ? (
            <span
              className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-200"
              title={doc.warnings.join('\n')}
              data-testid="document-warnings"
            >
              {doc.warnings.length} warning{doc.warnings.length === 1 ? '' : 's'}
            </span>
          ) : null}
          {doc.parentId ? (
            <span
              className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600"
              title="Attachment or archive member"
            >
              Attached file
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
    const advice = failureAdvice(doc);
    return (
      <div className="flex min-w-0 flex-col gap-1">
        <span className="inline-flex w-fit items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-200">
          <AlertIcon className="h-3.5 w-3.5" />
          Failed
        </span>
        <p className="line-clamp-2 text-xs break-words text-red-700" title={reason} data-testid="document-error">
          {reason}
        </p>
        {advice.retry ? null : (
          <p className="text-xs break-words text-slate-600" data-testid="document-advice">
            {advice.advice}
          </p>
        )}
      </div>
    );
  }
  const queued = doc.status === 'PENDING';
  const label = queued ? 'Queued' : stageLabel(doc.stage, pipeline);
  const position = trackPosition(queued ? 'queued' : doc.stage, doc.progress, pipeline);
  const text = queued ? 'Queued, waiting for a free worker' : `${label}, ${percent(doc.progress)}% overall`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-brand-700" data-testid="document-stage">
          {queued ? 'Queued' : `${label}…`}
        </span>
        <span className="text-slate-500 tabular-nums">{queued ? 'waiting' : `${percent(doc.progress)}%`}</span>
      </div>
      <StageTrack
        index={position.index}
        fraction={queued ? null : position.fraction}
        label={`Processing ${doc.filename}`}
        valueText={text}
        valueNow={queued ? undefined : percent(doc.progress)}
        stages={trackStages(pipeline)}
      />
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
  pipeline,
  actions,
}: {
  doc: DocumentSummary;
  buckets: readonly BucketSummary[];
  selected: boolean;
  busy: boolean;
  highlighted: boolean;
  pipeline: PipelineConfig;
  actions: DocumentRowActions;
}) {
  const nameId = useId();
  const kind = fileKind(doc.mime, doc.filename);
  const bucket = doc.bucketId ? buckets.find((b) => b.id === doc.bucketId) : undefined;
  const { documentDate, tags, fields } = doc.metadata;
  const title = usableTitle({ filename: doc.filename, title: doc.metadata.title });
  const retryable = doc.status === 'FAILED' && failureAdvice(doc).retry;
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
        'flex items-start gap-3 px-4 py-3.5 transition-colors',
        selected ? 'bg-brand-50/60' : 'hover:bg-slate-50/70',
        highlighted && 'bg-amber-50 ring-2 ring-amber-300 ring-inset',
      )}
    >
      <input
        type="checkbox"
        checked={selected}
        onChange={(event) => actions.onSelect(doc.id, event.target.checked)}
        aria-label={`Select ${doc.filename}`}
        aria-describedby={nameId}
        className="mt-3 h-4 w-4 flex-none cursor-pointer rounded border-slate-300 accent-brand-600"
      />
      <FileKindTile kind={kind} />
      <div className="flex min-w-0 flex-1 flex-col gap-2.5 md:flex-row md:items-center md:gap-5">
        <div className="min-w-0 flex-1">
          <p id={nameId} className="min-w-0 text-sm font-medium text-slate-900">
            <Link
              href={documentViewHref(doc.id)}
              className="block truncate rounded-sm hover:text-brand-700 hover:underline focus-visible:ring-2 focus-visible:ring-brand-300 focus-visible:outline-none"
              title={doc.filename}
              data-testid="document-name"
            >
              <bdi>{doc.filename}</bdi>
            </Link>
          </p>
          {title ? (
            <p className="truncate text-sm text-slate-600" title={title} data-testid="document-title">
              <bdi>{title}</bdi>
            </p>
          ) : null}
          <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
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
            <span aria-hidden="true">·</span>
            <span className="relative inline-flex items-center">
              <FolderIcon className="pointer-events-none absolute left-1.5 h-3.5 w-3.5 text-slate-400" />
              <label className="sr-only" htmlFor={`bucket-${doc.id}`}>
                Move to bucket
              </label>
              <select
                id={`bucket-${doc.id}`}
                value={doc.bucketId ?? ''}
                disabled={busy}
                onChange={(event) => actions.onMove(doc, event.target.value || null)}
                title={bucket ? `Bucket: ${bucket.name}` : 'Not in a bucket'}
                className={clsx(
                  'max-w-[11rem] cursor-pointer truncate rounded-md border border-transparent py-0.5 pr-6 pl-6 text-xs hover:border-slate-200 hover:bg-white focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none disabled:cursor-wait',
                  bucket ? 'bg-slate-100 font-medium text-slate-700' : 'bg-transparent text-slate-500',
                )}
              >
                <option value="">No bucket</option>
                {buckets.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </span>
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
                    className="max-w-[10rem] truncate rounded-full bg-brand-50 px-2 py-px text-[11px] font-medium text-brand-700 ring-1 ring-inset ring-brand-100"
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

        <div className="min-w-0 md:w-48 md:flex-none xl:w-56" data-testid="document-status">
          <StatusBlock doc={doc} pipeline={pipeline} />
        </div>

        <div className="flex flex-none items-center gap-0.5 md:w-[10.5rem] md:justify-end">
          {running ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => actions.onCancel(doc)}
              disabled={busy}
              className="mr-1"
            >
              <StopCircleIcon className="h-3.5 w-3.5" />
              Cancel
            </Button>
          ) : retryable ? (
            <Button size="sm" onClick={() => actions.onReindex(doc)} disabled={busy} className="mr-1">
              <RefreshIcon className="h-3.5 w-3.5" />
              Retry
            </Button>
          ) : doc.status === 'FAILED' ? null : (
            <IconButton
              label={`Re-index ${doc.filename}`}
              hint="Index this document again"
              onClick={() => actions.onReindex(doc)}
              disabled={busy}
            >
              <RefreshIcon />
            </IconButton>
          )}
          <IconButton
            label={`Details of ${doc.filename}`}
            hint="Title, date, tags and fields"
            onClick={() => actions.onEdit(doc)}
            disabled={busy}
          >
            <PencilIcon />
          </IconButton>
          <IconButton
            label={`Delete ${doc.filename}`}
            hint="Delete this document"
            onClick={() => actions.onDelete(doc)}
            disabled={busy}
            danger
          >
            <TrashIcon />
          </IconButton>
        </div>
      </div>
    </li>
  );
});

function IconButton({
  label,
  hint,
  onClick,
  disabled,
  danger,
  children,
}: {
  label: string;
  hint: string;
  onClick: () => void;
  disabled: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={hint}
      className={clsx(
        'rounded-md p-2 text-slate-500 transition-colors disabled:cursor-not-allowed disabled:opacity-40',
        danger ? 'hover:bg-red-50 hover:text-red-600' : 'hover:bg-slate-100 hover:text-slate-900',
      )}
    >
      {children}
    </button>
  );
}
