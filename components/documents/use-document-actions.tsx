'use client';

import { useCallback, useMemo, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { DocumentSummary } from '@/lib/db/documents';
import type { ConfirmRequest } from './confirm-dialog';
import type { DocumentRowActions } from './document-row';
import { plural, upsertDocument } from './document-view';
import { eachLimited } from './each-limited';
import type { ApplyLocal } from './use-document-library';

/** How many bulk requests travel at once. */
const BULK_CONCURRENCY = 4;

async function patchBucket(id: string, bucketId: string | null): Promise<DocumentSummary> {
  return (
    await fetchJson<{ document: DocumentSummary }>(`/api/documents/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bucketId }),
    })
  ).document;
}

async function postAction(id: string, action: 'reindex' | 'cancel'): Promise<DocumentSummary> {
  return (await fetchJson<{ document: DocumentSummary }>(`/api/documents/${id}/${action}`, { method: 'POST' }))
    .document;
}

/**
 * What the user does to documents: per row (select, move, edit, re-index, cancel, delete after a confirmation,
 * each row busy while its request runs) and in bulk on the selection (move, delete). Every change is applied
 * locally and announced; failures go to `reportError`.
 */
export function useDocumentActions({
  applyLocal,
  announce,
  reportError,
  bucketName,
  confirm,
  edit,
  select,
  clearSelection,
  forgetSelected,
}: {
  applyLocal: ApplyLocal;
  announce: (message: string) => void;
  reportError: (error: unknown) => void;
  bucketName: (id: string | null) => string;
  confirm: (request: ConfirmRequest) => void;
  edit: (id: string) => void;
  select: (id: string, on: boolean) => void;
  clearSelection: () => void;
  forgetSelected: (id: string) => void;
}) {
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [bulkBusy, setBulkBusy] = useState(false);

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

  const deleteOne = useCallback(
    async (id: string) => {
      await fetchJson<null>(`/api/documents/${id}`, { method: 'DELETE' });
      applyLocal((list) => list.filter((d) => d.id !== id));
      forgetSelected(id);
    },
    [applyLocal, forgetSelected],
  );

  const rowActions: DocumentRowActions = useMemo(
    () => ({
      onSelect: select,
      onMove: (doc, bucketId) =>
        void runRowAction(
          doc,
          () => patchBucket(doc.id, bucketId),
          (d) => `Moved ${d.filename} to ${bucketName(bucketId)}.`,
        ),
      onEdit: (doc) => edit(doc.id),
      onReindex: (doc) =>
        void runRowAction(
          doc,
          () => postAction(doc.id, 'reindex'),
          (d) => `${d.filename} queued for indexing again.`,
        ),
      onCancel: (doc) =>
        void runRowAction(
          doc,
          () => postAction(doc.id, 'cancel'),
          (d) => `Cancelling ${d.filename}.`,
        ),
      onDelete: (doc) =>
        confirm({
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
    [announce, bucketName, confirm, deleteOne, edit, runRowAction, select],
  );

  /** Moves `documents` (the selected ones shown); answers true when every move succeeded. */
  async function moveDocuments(documents: readonly DocumentSummary[], bucketId: string | null): Promise<boolean> {
    const targets = documents.filter((d) => d.bucketId !== bucketId);
    setBulkBusy(true);
    const errors = await eachLimited(targets, BULK_CONCURRENCY, async (doc) => {
      const updated = await patchBucket(doc.id, bucketId);
      applyLocal((list) => upsertDocument(list, updated));
    });
    setBulkBusy(false);
    if (errors.length > 0) reportError(errors[0]);
    announce(`Moved ${plural(targets.length - errors.length, 'document')} to ${bucketName(bucketId)}.`);
    if (errors.length === 0) clearSelection();
    return errors.length === 0;
  }

  /** Asks for confirmation, then deletes `documents` (the selected ones shown). */
  function deleteDocuments(documents: readonly DocumentSummary[]) {
    const targets = documents;
    confirm({
      title: `Delete ${plural(targets.length, 'document')}?`,
      body: 'The files and everything indexed from them are removed; answers that cited them lose those citations. This cannot be undone.',
      confirmLabel: `Delete ${plural(targets.length, 'document')}`,
      onConfirm: async () => {
        setBulkBusy(true);
        const errors = await eachLimited(targets, BULK_CONCURRENCY, (doc) => deleteOne(doc.id));
        setBulkBusy(false);
        if (errors.length > 0) reportError(errors[0]);
        announce(`Deleted ${plural(targets.length - errors.length, 'document')}.`);
      },
    });
  }

  return { busy, bulkBusy, rowActions, moveDocuments, deleteDocuments };
}
