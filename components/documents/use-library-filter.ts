'use client';

import { useState } from 'react';
import { type BucketFilter, type DocumentFilter, EMPTY_FILTER, type StatusFilter } from './document-view';

/**
 * The list's filter (bucket, status, name) and the bucket new uploads go to. Choosing a bucket in the panel
 * also makes it the upload target.
 */
export function useLibraryFilter() {
  const [filter, setFilter] = useState<DocumentFilter>(EMPTY_FILTER);
  const [uploadTarget, setUploadTarget] = useState<string | null>(null);

  return {
    filter,
    uploadTarget,
    setUploadTarget,
    /** True when anything narrows the list. */
    filtered: filter.bucket !== 'all' || filter.status !== 'all' || filter.name.trim() !== '',
    setStatus: (status: StatusFilter) => setFilter((f) => ({ ...f, status })),
    setName: (name: string) => setFilter((f) => ({ ...f, name })),
    chooseBucket: (bucket: BucketFilter) => {
      setFilter((f) => ({ ...f, bucket }));
      setUploadTarget(typeof bucket === 'object' ? bucket.id : null);
    },
    /** Widens the filter so rows uploaded to the current target will be shown. */
    revealUploadTarget: () =>
      setFilter((f) => {
        const bucketShowsTarget =
          f.bucket === 'all' || (f.bucket === 'none' ? uploadTarget === null : f.bucket.id === uploadTarget);
        if (bucketShowsTarget && f.status === 'all' && !f.name) return f;
        return { bucket: bucketShowsTarget ? f.bucket : 'all', status: 'all', name: '' };
      }),
    /** Shows every document (the upload target stays). */
    showAll: () => setFilter(EMPTY_FILTER),
    /** Shows every document and uploads to no bucket. */
    clear: () => {
      setFilter(EMPTY_FILTER);
      setUploadTarget(null);
    },
    /** A deleted bucket stops being the filter or the upload target. */
    forgetBucket: (id: string) => {
      setFilter((f) => (typeof f.bucket === 'object' && f.bucket.id === id ? { ...f, bucket: 'all' } : f));
      setUploadTarget((t) => (t === id ? null : t));
    },
  };
}
