'use client';

import clsx from 'clsx';
import { AlertIcon, InfoIcon, RefreshIcon, XIcon } from '@/components/icons';
import { Button } from '@/components/ui/button';
import { fileKind, formatBytes } from './document-view';
import { FileKindTile } from './file-kind-tile';
import { StageTrack } from './stage-track';
import type { UploadItem } from './use-upload-queue';

const STATUS_ATTR: Record<UploadItem['state'], string> = {
  waiting: 'WAITING',
  uploading: 'UPLOADING',
  failed: 'FAILED',
  duplicate: 'DUPLICATE',
};

function UploadRow({
  item,
  onCancel,
  onRetry,
  onDismiss,
  onShow,
}: {
  item: UploadItem;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onDismiss: (id: string) => void;
  onShow: (documentId: string) => void;
}) {
  const name = item.file.name;
  const sent = item.total > 0 ? item.loaded / item.total : 0;
  const serverReading = item.state === 'uploading' && item.total > 0 && item.loaded >= item.total;
  return (
    <li
      data-testid="upload-row"
      data-status={STATUS_ATTR[item.state]}
      data-filename={name}
      className={clsx(
        'flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:flex-nowrap',
        item.state === 'duplicate' && 'bg-sky-50/60',
        item.state === 'failed' && 'bg-red-50/40',
      )}
    >
      <FileKindTile kind={fileKind(item.file.type, name)} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900" title={name}>
          <bdi>{name}</bdi>
        </p>
        {item.state === 'duplicate' && item.duplicateOf ? (
          <p className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs text-sky-800" role="status">
            <InfoIcon className="h-3.5 w-3.5 text-sky-600" />
            <span className="min-w-0 truncate" title={item.duplicateOf.filename}>
              Already uploaded as <bdi className="font-medium">{item.duplicateOf.filename}</bdi>
            </span>
          </p>
        ) : item.state === 'failed' && item.error ? (
          <p className="mt-0.5 flex min-w-0 items-start gap-1.5 text-xs text-red-700" data-testid="upload-error">
            <AlertIcon className="mt-px h-3.5 w-3.5" />
            <span className="min-w-0 break-words">{item.error.message}</span>
          </p>
        ) : (
          <div className="mt-1.5 flex items-center gap-3">
            <div className="min-w-0 flex-1">
              <StageTrack
                index={serverReading ? 1 : 0}
                fraction={item.state === 'waiting' || serverReading ? null : sent}
                tone="sky"
                label={`Uploading ${name}`}
                valueNow={item.state === 'uploading' && !serverReading ? Math.round(sent * 100) : undefined}
                valueText={
                  item.state === 'waiting'
                    ? 'Waiting to upload'
                    : serverReading
                      ? 'Uploaded, the server is checking the file'
                      : `Uploading, ${Math.round(sent * 100)}%`
                }
              />
            </div>
            <span
              className="flex-none text-right text-xs whitespace-nowrap text-slate-500 tabular-nums"
              data-testid="upload-stage"
            >
              {item.state === 'waiting' ? (
                'Waiting…'
              ) : serverReading ? (
                'Checking file…'
              ) : (
                <>
                  Uploading {Math.round(sent * 100)}%
                  <span className="hidden sm:inline">
                    {' '}
                    · {formatBytes(item.loaded)} of {formatBytes(item.total)}
                  </span>
                </>
              )}
            </span>
          </div>
        )}
      </div>
      <div className="flex flex-none items-center gap-1">
        {item.state === 'waiting' || item.state === 'uploading' ? (
          <Button size="sm" variant="secondary" onClick={() => onCancel(item.id)}>
            Cancel
          </Button>
        ) : null}
        {item.state === 'duplicate' && item.duplicateOf ? (
          <Button size="sm" variant="secondary" onClick={() => item.duplicateOf && onShow(item.duplicateOf.id)}>
            Show it
          </Button>
        ) : null}
        {item.state === 'failed' && item.error?.retryable ? (
          <Button size="sm" onClick={() => onRetry(item.id)}>
            <RefreshIcon className="h-3.5 w-3.5" />
            Retry
          </Button>
        ) : null}
        {item.state === 'failed' || item.state === 'duplicate' ? (
          <button
            type="button"
            onClick={() => onDismiss(item.id)}
            className="rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
            aria-label="Dismiss"
            title="Dismiss"
          >
            <XIcon />
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** The uploads of this visit: waiting, in flight (byte progress, cancel), refused (reason, retry) or duplicates. */
export function UploadList({
  items,
  onCancel,
  onRetry,
  onDismiss,
  onClearFinished,
  onShow,
}: {
  items: readonly UploadItem[];
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onDismiss: (id: string) => void;
  onClearFinished: () => void;
  onShow: (documentId: string) => void;
}) {
  if (items.length === 0) return null;
  const active = items.filter((i) => i.state === 'waiting' || i.state === 'uploading').length;
  const failed = items.filter((i) => i.state === 'failed').length;
  const duplicates = items.filter((i) => i.state === 'duplicate').length;
  const finished = failed + duplicates;
  const summary = [
    active > 0 ? `${active} in progress` : null,
    failed > 0 ? `${failed} failed` : null,
    duplicates > 0 ? `${duplicates} already uploaded` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <section
      aria-labelledby="uploads-heading"
      className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex items-center gap-3 border-b border-slate-100 px-4 py-2.5">
        <h2 id="uploads-heading" className="text-sm font-semibold text-slate-900">
          Uploads
        </h2>
        <span className="text-xs text-slate-500">{summary}</span>
        {finished > 0 ? (
          <Button size="sm" variant="ghost" className="ml-auto" onClick={onClearFinished}>
            Clear
          </Button>
        ) : null}
      </div>
      <ul className="divide-y divide-slate-100">
        {items.map((item) => (
          <UploadRow
            key={item.id}
            item={item}
            onCancel={onCancel}
            onRetry={onRetry}
            onDismiss={onDismiss}
            onShow={onShow}
          />
        ))}
      </ul>
    </section>
  );
}
