'use client';

import { useCallback, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { BucketSummary } from '@/lib/db/buckets';
import type { DocumentSummary } from '@/lib/db/documents';
import { bucketFieldMessage, sortBuckets } from './bucket-names';
import type { BucketSaveResult } from './buckets-panel';
import type { ConfirmRequest } from './confirm-dialog';
import { plural } from './document-view';
import type { ApplyLocal } from './use-document-library';

/**
 * The user's buckets and what the panel does with them: create and rename (a name problem comes back as the
 * field's message, anything else goes to the error toaster), and delete after a confirmation, which leaves the
 * bucket's documents without a bucket.
 */
export function useBuckets({
  initialBuckets,
  documents,
  applyLocal,
  announce,
  reportError,
  confirm,
  onDeleted,
}: {
  initialBuckets: BucketSummary[];
  documents: readonly DocumentSummary[];
  applyLocal: ApplyLocal;
  announce: (message: string) => void;
  reportError: (error: unknown) => void;
  confirm: (request: ConfirmRequest) => void;
  /** Called after a bucket was deleted (e.g. to stop filtering by it). */
  onDeleted: (id: string) => void;
}) {
  const [buckets, setBuckets] = useState(() => sortBuckets([...initialBuckets]));

  const bucketName = useCallback(
    (id: string | null) => (id ? (buckets.find((b) => b.id === id)?.name ?? 'a bucket') : 'No bucket'),
    [buckets],
  );

  /** Sends a name; null when saved, the field's message for a name problem, '' for any other failure. */
  async function saveName(
    url: string,
    method: 'POST' | 'PATCH',
    name: string,
    saved: (bucket: BucketSummary) => void,
  ): Promise<BucketSaveResult> {
    try {
      const { bucket } = await fetchJson<{ bucket: BucketSummary }>(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      saved(bucket);
      return null;
    } catch (error) {
      const message = bucketFieldMessage(error);
      if (message) return message;
      reportError(error);
      return '';
    }
  }

  const createBucket = (name: string) =>
    saveName('/api/buckets', 'POST', name, (bucket) => {
      setBuckets((list) => sortBuckets([...list.filter((b) => b.id !== bucket.id), bucket]));
      announce(`Bucket ${bucket.name} created.`);
    });

  const renameBucket = (id: string, name: string) =>
    saveName(`/api/buckets/${id}`, 'PATCH', name, (bucket) => {
      setBuckets((list) => sortBuckets(list.map((b) => (b.id === id ? { ...b, name: bucket.name } : b))));
      announce(`Bucket renamed to ${bucket.name}.`);
    });

  function deleteBucket(bucket: BucketSummary) {
    const count = documents.filter((d) => d.bucketId === bucket.id).length;
    confirm({
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
        onDeleted(bucket.id);
        announce(`Bucket ${bucket.name} deleted.`);
      },
    });
  }

  return { buckets, bucketName, createBucket, renameBucket, deleteBucket };
}
