'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useReportError } from '@/components/error-toaster';
import { fetchJson } from '@/lib/client/fetch-json';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import { bucketFieldMessage, sortBuckets } from './bucket-names';
import { type BucketSaveResult, BucketsPanel } from './buckets-panel';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';
import { DocumentFilters } from './document-filters';
import { DocumentList } from './document-list';
import type { DocumentRowActions } from './document-row';
import {
  type BucketFilter,
  countByBucket,
  countByStatus,
  type DocumentFilter,
  describeIndexed,
  EMPTY_FILTER,
  filterDocuments,
  isFinished,
  mergeDocuments,
  newlyFinished,
  plural,
  upsertDocument,
} from './document-view';
import { eachLimited } from './each-limited';
import { MetadataDialog } from './metadata-dialog';
import { SemanticSearchBanner } from './semantic-search-banner';
import { UploadList } from './upload-list';
import { UploadZone } from './upload-zone';
import { useDocumentPolling } from './use-document-polling';
import { useUploadQueue } from './use-upload-queue';

/**
 * The /documents dashboard: upload (picker, whole-page drop, per-file byte progress), live processing state
 * polled once a second while anything is unfinished, filters with counts, buckets, bulk and per-row moves,
 * the details editor, delete, re-index, retry and cancel. Errors go to the error toaster or inline.
 */
export function DocumentsDashboard({
  initialDocuments,
  initialBuckets,
}: {
  initialDocuments: DocumentSummary[];
  initialBuckets: BucketSummary[];
}) {
  const reportError = useReportError();
  const [documents, setDocuments] = useState(initialDocuments);
  const [buckets, setBuckets] = useState(() => sortBuckets([...initialBuckets]));
  const [filter, setFilter] = useState<DocumentFilter>(EMPTY_FILTER);
  const [uploadTarget, setUploadTarget] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [editingId, setEditingId] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [bulkBusy, setBulkBusy] = useState(false);

  // Every local change bumps the version, so a poll that started earlier cannot undo it.
  const versionRef = useRef(0);
  const documentsRef = useRef(documents);
  useEffect(() => {
    documentsRef.current = documents;
  });

  const announce = useCallback((message: string) => {
    // the same text twice in a row must still be read out
    setAnnouncement((previous) => (previous === message ? `${message}\u00a0` : message));
  }, []);

  const applyLocal = useCallback((change: (list: DocumentSummary[]) => DocumentSummary[]) => {
    versionRef.current += 1;
    setDocuments(change);
  }, []);

  // ---- live updates -------------------------------------------------------------------------------------
  const unfinished = documents.filter((d) => !isFinished(d)).length;
  useDocumentPolling({
    active: unfinished > 0,
    versionRef,
    onDocuments: (next) => {
      const finished = newlyFinished(documentsRef.current, next);
      if (finished.length === 1 && finished[0]) {
        const d = finished[0];
        announce(
          d.status === 'INDEXED'
            ? `${d.filename} is indexed: ${describeIndexed(d)}.`
            : `${d.filename} failed: ${d.error ?? 'unknown reason'}.`,
        );
      } else if (finished.length > 1) {
        const failed = finished.filter((d) => d.status === 'FAILED').length;
        announce(`${plural(finished.length, 'document')} finished${failed ? `, ${failed} failed` : ''}.`);
      }
      setDocuments((previous) => mergeDocuments(previous, next));
    },
    onError: reportError,
  });

  // ---- uploads ------------------------------------------------------------------------------------------
  const uploads = useUploadQueue({
    onUploaded: (document) => {
      applyLocal((list) => upsertDocument(list, document));
      announce(`${document.filename} uploaded, queued for indexing.`);
    },
    onDuplicate: (existing, file) => {
      announce(`${file.name} was already uploaded as ${existing.filename}.`);
    },
  });

  function startUploads(files: File[]) {
    if (files.length === 0) return;
    // make sure the new rows are visible when they arrive
    setFilter((f) => {
      const bucketShowsTarget =
        f.bucket === 'all' || (f.bucket === 'none' ? uploadTarget === null : f.bucket.id === uploadTarget);
      if (bucketShowsTarget && f.status === 'all' && !f.name) return f;
      return { bucket: bucketShowsTarget ? f.bucket : 'all', status: 'all', name: '' };
    });
    uploads.enqueue(files, uploadTarget);
    announce(`${plural(files.length, 'file')} added to the upload queue.`);
  }

  function showDocument(id: string) {
    setFilter(EMPTY_FILTER);
    setHighlight(id);
  }

  useEffect(() => {
    if (!highlight) return;
    const frame = requestAnimationFrame(() => {
      document.getElementById(`document-${highlight}`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    });
    const timer = setTimeout(() => setHighlight(null), 2400);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [highlight]);

  // ---- per-document actions -----------------------------------------------------------------------------
  const setRowBusy = useCallback((id: string, on: boolean) => {
    setBusy((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const runRowAction = useCallback(
    async (
      doc: DocumentSummary,
      work: () => Promise<DocumentSummary | null>,
      message?: (d: DocumentSummary) => string,
    ) => {
      setRowBusy(doc.id, true);
      try {
        const updated = await work();
        if (updated) {
          applyLocal((list) => upsertDocument(list, updated));
          if (message) announce(message(updated));
        }
      } catch (error) {
        reportError(error);
      } finally {
        setRowBusy(doc.id, false);
      }
    },
    [announce, applyLocal, reportError, setRowBusy],
  );

  const bucketName = useCallback(
    (id: string | null) => (id ? (buckets.find((b) => b.id === id)?.name ?? 'a bucket') : 'No bucket'),
    [buckets],
  );

  const patchBucket = useCallback(
    async (id: string, bucketId: string | null) =>
      (
        await fetchJson<{ document: DocumentSummary }>(`/api/documents/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ bucketId }),
        })
      ).document,
    [],
  );

  const deleteOne = useCallback(
    async (id: string) => {
      await fetchJson<null>(`/api/documents/${id}`, { method: 'DELETE' });
      applyLocal((list) => list.filter((d) => d.id !== id));
      setSelected((current) => {
        if (!current.has(id)) return current;
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    },
    [applyLocal],
  );

  const rowActions: DocumentRowActions = useMemo(
    () => ({
      onSelect: (id, on) =>
        setSelected((current) => {
          const next = new Set(current);
          if (on) next.add(id);
          else next.delete(id);
          return next;
        }),
      onMove: (doc, bucketId) =>
        void runRowAction(
          doc,
          () => patchBucket(doc.id, bucketId),
          (d) => `Moved ${d.filename} to ${bucketName(bucketId)}.`,
        ),
      onEdit: (doc) => setEditingId(doc.id),
      onReindex: (doc) =>
        void runRowAction(
          doc,
          async () =>
            (await fetchJson<{ document: DocumentSummary }>(`/api/documents/${doc.id}/reindex`, { method: 'POST' }))
              .document,
          (d) => `${d.filename} queued for indexing again.`,
        ),
      onCancel: (doc) =>
        void runRowAction(
          doc,
          async () =>
            (await fetchJson<{ document: DocumentSummary }>(`/api/documents/${doc.id}/cancel`, { method: 'POST' }))
              .document,
          (d) => `Cancelling ${d.filename}.`,
        ),
      onDelete: (doc) =>
        setConfirm({
          title: 'Delete this document?',
          body: (
            <>
              <span className="block truncate font-medium text-slate-800" title={doc.filename}>
                <bdi>{doc.filename}</bdi>
              </span>
              The file and everything indexed from it are removed; answers that cited it lose those citations. This
              cannot be undone.
            </>
          ),
          confirmLabel: 'Delete document',
          onConfirm: async () => {
            await deleteOne(doc.id);
            announce(`Deleted ${doc.filename}.`);
          },
        }),
    }),
    [announce, bucketName, deleteOne, patchBucket, runRowAction],
  );

  // ---- buckets ------------------------------------------------------------------------------------------
  function chooseBucketFilter(bucket: BucketFilter) {
    setFilter((f) => ({ ...f, bucket }));
    setUploadTarget(typeof bucket === 'object' ? bucket.id : null);
  }

  async function createBucket(name: string): Promise<BucketSaveResult> {
    try {
      const { bucket } = await fetchJson<{ bucket: BucketSummary }>('/api/buckets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      setBuckets((list) => sortBuckets([...list.filter((b) => b.id !== bucket.id), bucket]));
      announce(`Bucket ${bucket.name} created.`);
      return null;
    } catch (error) {
      const message = bucketFieldMessage(error);
      if (message) return message;
      reportError(error);
      return '';
    }
  }

  async function renameBucket(id: string, name: string): Promise<BucketSaveResult> {
    try {
      const { bucket } = await fetchJson<{ bucket: BucketSummary }>(`/api/buckets/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      setBuckets((list) => sortBuckets(list.map((b) => (b.id === id ? { ...b, name: bucket.name } : b))));
      announce(`Bucket renamed to ${bucket.name}.`);
      return null;
    } catch (error) {
      const message = bucketFieldMessage(error);
      if (message) return message;
      reportError(error);
      return '';
    }
  }

  function deleteBucket(bucket: BucketSummary) {
    const count = documents.filter((d) => d.bucketId === bucket.id).length;
    setConfirm({
      title: 'Delete this bucket?',
      body: (
        <>
          <span className="block truncate font-medium text-slate-800" title={bucket.name}>
            <bdi>{bucket.name}</bdi>
          </span>
          {count > 0
            ? `Its ${plural(count, 'document')} stay${count === 1 ? 's' : ''} in your library, without a bucket.`
            : 'It is empty; no documents are affected.'}
        </>
      ),
      confirmLabel: 'Delete bucket',
      onConfirm: async () => {
        await fetchJson<null>(`/api/buckets/${bucket.id}`, { method: 'DELETE' });
        setBuckets((list) => list.filter((b) => b.id !== bucket.id));
        applyLocal((list) => list.map((d) => (d.bucketId === bucket.id ? { ...d, bucketId: null } : d)));
        setFilter((f) => (typeof f.bucket === 'object' && f.bucket.id === bucket.id ? { ...f, bucket: 'all' } : f));
        setUploadTarget((t) => (t === bucket.id ? null : t));
        announce(`Bucket ${bucket.name} deleted.`);
      },
    });
  }

  // ---- derived view -------------------------------------------------------------------------------------
  const visible = useMemo(() => filterDocuments(documents, filter), [documents, filter]);
  const statusCounts = useMemo(() => countByStatus(documents, filter), [documents, filter]);
  const bucketCounts = useMemo(() => countByBucket(documents), [documents]);
  const selectedVisible = visible.filter((d) => selected.has(d.id));

  const editing = editingId ? documents.find((d) => d.id === editingId) : undefined;
  const filtered = filter.bucket !== 'all' || filter.status !== 'all' || filter.name.trim() !== '';
  const firstRun = documents.length === 0 && uploads.items.length === 0;

  // ---- bulk actions -------------------------------------------------------------------------------------
  /** Moves the selected (and shown) documents; answers true when every move succeeded. */
  async function moveSelected(bucketId: string | null): Promise<boolean> {
    const targets = selectedVisible.filter((d) => d.bucketId !== bucketId);
    setBulkBusy(true);
    const errors = await eachLimited(targets, 4, async (doc) => {
      const updated = await patchBucket(doc.id, bucketId);
      applyLocal((list) => upsertDocument(list, updated));
    });
    setBulkBusy(false);
    if (errors.length > 0) reportError(errors[0]);
    announce(`Moved ${plural(targets.length - errors.length, 'document')} to ${bucketName(bucketId)}.`);
    if (errors.length === 0) setSelected(new Set());
    return errors.length === 0;
  }

  function deleteSelected() {
    const targets = selectedVisible;
    setConfirm({
      title: `Delete ${plural(targets.length, 'document')}?`,
      body: 'The files and everything indexed from them are removed; answers that cited them lose those citations. This cannot be undone.',
      confirmLabel: `Delete ${plural(targets.length, 'document')}`,
      onConfirm: async () => {
        setBulkBusy(true);
        const errors = await eachLimited(targets, 4, (doc) => deleteOne(doc.id));
        setBulkBusy(false);
        if (errors.length > 0) reportError(errors[0]);
        announce(`Deleted ${plural(targets.length - errors.length, 'document')}.`);
      },
    });
  }

  const processing = unfinished;
  const indexedCount = documents.filter((d) => d.status === 'INDEXED').length;

  return (
    <div className="flex flex-col gap-6">
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

      <SemanticSearchBanner />

      <p aria-live="polite" className="sr-only" data-testid="announcer">
        {announcement}
      </p>

      {firstRun ? (
        <UploadZone
          variant="hero"
          buckets={buckets}
          target={uploadTarget}
          onTargetChange={setUploadTarget}
          onFiles={startUploads}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] xl:grid-cols-[16rem_minmax(0,1fr)]">
          <aside className="lg:sticky lg:top-20 lg:self-start">
            <BucketsPanel
              buckets={buckets}
              counts={bucketCounts}
              total={documents.length}
              filter={filter.bucket}
              onFilter={chooseBucketFilter}
              onCreate={createBucket}
              onRename={renameBucket}
              onDelete={deleteBucket}
            />
          </aside>

          <div className="flex min-w-0 flex-col gap-4">
            <UploadZone
              variant="compact"
              buckets={buckets}
              target={uploadTarget}
              onTargetChange={setUploadTarget}
              onFiles={startUploads}
            />
            <UploadList
              items={uploads.items}
              onCancel={uploads.cancel}
              onRetry={uploads.retry}
              onDismiss={uploads.dismiss}
              onClearFinished={uploads.clearFinished}
              onShow={showDocument}
            />

            <DocumentFilters
              status={filter.status}
              name={filter.name}
              counts={statusCounts}
              onStatus={(status) => setFilter((f) => ({ ...f, status }))}
              onName={(name) => setFilter((f) => ({ ...f, name }))}
            />

            <DocumentList
              documents={visible}
              total={documents.length}
              filtered={filtered}
              buckets={buckets}
              selected={selected}
              busy={busy}
              bulkBusy={bulkBusy}
              highlight={highlight}
              actions={rowActions}
              onSelectAll={(ids, on) =>
                setSelected((current) => {
                  const next = new Set(current);
                  for (const id of ids) {
                    if (on) next.add(id);
                    else next.delete(id);
                  }
                  return next;
                })
              }
              onClearSelection={() => setSelected(new Set())}
              onMoveSelected={moveSelected}
              onDeleteSelected={deleteSelected}
              onClearFilters={() => {
                setFilter(EMPTY_FILTER);
                setUploadTarget(null);
              }}
            />
          </div>
        </div>
      )}

      {editing ? (
        <MetadataDialog
          key={editing.id}
          doc={editing}
          buckets={buckets}
          onClose={() => setEditingId(null)}
          onSaved={(doc) => {
            applyLocal((list) => upsertDocument(list, doc));
            setEditingId(null);
            announce(`Saved the details of ${doc.filename}.`);
          }}
        />
      ) : null}
      {confirm ? <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} /> : null}
    </div>
  );
}
