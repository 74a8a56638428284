'use client';

import { useMemo, useState } from 'react';
import { useReportError } from '@/components/error-toaster';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import type { StorageQuota } from '@/lib/documents/quota-text';
import { Announcer, useAnnouncer } from './announcer';
import { BucketsPanel } from './buckets-panel';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';
import { DocumentFilters } from './document-filters';
import { DocumentList } from './document-list';
import { countByBucket, countByStatus, EMPTY_FILTER, filterDocuments, upsertDocument } from './document-view';
import { LibraryHeader } from './library-header';
import { MetadataDialog } from './metadata-dialog';
import { SemanticSearchBanner } from './semantic-search-banner';
import { StorageUsage } from './storage-usage';
import { UploadSection, useLibraryUploads } from './upload-section';
import { UploadZone } from './upload-zone';
import { useBuckets } from './use-buckets';
import { useDocumentActions } from './use-document-actions';
import { useDocumentLibrary } from './use-document-library';
import { useEmbedderStatus } from './use-embedder-status';
import { useHighlight } from './use-highlight';
import { useLibraryFilter } from './use-library-filter';
import { useSelection } from './use-selection';

/**
 * The /documents dashboard: upload (picker, whole-page drop, per-file byte progress), live processing state
 * polled once a second while anything is unfinished, filters with counts, buckets, bulk and per-row moves,
 * the details editor, delete, re-index, retry and cancel. Errors go to the error toaster or inline.
 *
 * This component only wires the sections together; each concern keeps its state in its own hook (announcer,
 * document library with polling, filter, selection, highlight, buckets, document actions, uploads).
 */
export function DocumentsDashboard({
  initialDocuments,
  initialBuckets,
  quota,
}: {
  initialDocuments: DocumentSummary[];
  initialBuckets: BucketSummary[];
  /** The per-user storage quota, shown against what the documents use. */
  quota: StorageQuota;
}) {
  const reportError = useReportError();
  const { announcement, announce } = useAnnouncer();
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [highlight, setHighlight] = useHighlight();
  const embedder = useEmbedderStatus();
  const pipeline = useMemo(() => ({ semanticSearch: embedder.semanticSearch }), [embedder.semanticSearch]);
  const { documents, applyLocal } = useDocumentLibrary({
    initialDocuments,
    announce,
    onError: reportError,
  });
  const view = useLibraryFilter();
  const selection = useSelection();
  const { buckets, bucketName, createBucket, renameBucket, deleteBucket } = useBuckets({
    initialBuckets,
    documents,
    applyLocal,
    announce,
    reportError,
    confirm: setConfirm,
    onDeleted: view.forgetBucket,
  });
  const actions = useDocumentActions({
    applyLocal,
    announce,
    reportError,
    bucketName,
    confirm: setConfirm,
    edit: setEditingId,
    select: selection.select,
    clearSelection: selection.clear,
    forgetSelected: selection.drop,
  });
  const uploads = useLibraryUploads({
    target: view.uploadTarget,
    applyLocal,
    announce,
    revealTarget: view.revealUploadTarget,
  });

  function showDocument(id: string) {
    view.showAll();
    setHighlight(id);
  }

  const { filter } = view;
  const visible = useMemo(() => filterDocuments(documents, filter), [documents, filter]);
  // one computation for the header (the whole library) and the status filter (the bucket and name in view)
  const libraryCounts = useMemo(() => countByStatus(documents, EMPTY_FILTER), [documents]);
  const statusCounts = useMemo(() => countByStatus(documents, filter), [documents, filter]);
  const bucketCounts = useMemo(() => countByBucket(documents), [documents]);
  const selectedVisible = visible.filter((d) => selection.selected.has(d.id));
  const editing = editingId ? documents.find((d) => d.id === editingId) : undefined;
  const firstRun = documents.length === 0 && uploads.uploads.items.length === 0;

  return (
    <div className="flex flex-col gap-6">
      <LibraryHeader counts={libraryCounts} />
      <StorageUsage documents={documents} quota={quota} />

      <SemanticSearchBanner embedder={embedder} />

      <Announcer message={announcement} />

      {firstRun ? (
        <UploadZone
          variant="hero"
          buckets={buckets}
          target={view.uploadTarget}
          onTargetChange={view.setUploadTarget}
          onFiles={uploads.startUploads}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] xl:grid-cols-[16rem_minmax(0,1fr)]">
          <aside className="lg:sticky lg:top-20 lg:self-start">
            <BucketsPanel
              buckets={buckets}
              counts={bucketCounts}
              total={documents.length}
              filter={filter.bucket}
              onFilter={view.chooseBucket}
              onCreate={createBucket}
              onRename={renameBucket}
              onDelete={deleteBucket}
            />
          </aside>

          <div className="flex min-w-0 flex-col gap-4">
            <UploadSection
              buckets={buckets}
              target={view.uploadTarget}
              onTargetChange={view.setUploadTarget}
              library={uploads}
              onShow={showDocument}
            />

            <DocumentFilters
              status={filter.status}
              name={filter.name}
              counts={statusCounts}
              onStatus={view.setStatus}
              onName={view.setName}
            />

            <DocumentList
              documents={visible}
              total={documents.length}
              filtered={view.filtered}
              buckets={buckets}
              selected={selection.selected}
              busy={actions.busy}
              bulkBusy={actions.bulkBusy}
              highlight={highlight}
              pipeline={pipeline}
              actions={actions.rowActions}
              onSelectAll={selection.selectMany}
              onClearSelection={selection.clear}
              onMoveSelected={(bucketId) => actions.moveDocuments(selectedVisible, bucketId)}
              onDeleteSelected={() => actions.deleteDocuments(selectedVisible)}
              onClearFilters={view.clear}
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
