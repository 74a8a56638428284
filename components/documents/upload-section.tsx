'use client';

import type { BucketSummary } from '@/lib/db/buckets';
import { plural, upsertDocument } from './document-view';
import { UploadList } from './upload-list';
import { UploadZone } from './upload-zone';
import type { ApplyLocal } from './use-document-library';
import { useUploadQueue } from './use-upload-queue';

/**
 * The page's upload queue: `startUploads` widens the filter so the new rows will show, queues the files for the
 * target bucket and announces them; a finished upload joins the list.
 */
export function useLibraryUploads({
  target,
  applyLocal,
  announce,
  revealTarget,
}: {
  target: string | null;
  applyLocal: ApplyLocal;
  announce: (message: string) => void;
  /** Makes rows uploaded to `target` visible under the current filter. */
  revealTarget: () => void;
}) {
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
    revealTarget();
    uploads.enqueue(files, target);
    announce(`${plural(files.length, 'file')} added to the upload queue.`);
  }

  return { uploads, startUploads };
}

type LibraryUploads = ReturnType<typeof useLibraryUploads>;

/** Above the list: the compact drop zone with its bucket picker, then the files in flight. */
export function UploadSection({
  buckets,
  target,
  onTargetChange,
  library,
  onShow,
}: {
  buckets: readonly BucketSummary[];
  target: string | null;
  onTargetChange: (target: string | null) => void;
  library: LibraryUploads;
  /** Scrolls to an existing document (a duplicate's "Show"). */
  onShow: (id: string) => void;
}) {
  const { uploads, startUploads } = library;
  return (
    <>
      <UploadZone
        variant="compact"
        buckets={buckets}
        target={target}
        onTargetChange={onTargetChange}
        onFiles={startUploads}
      />
      <UploadList
        items={uploads.items}
        onCancel={uploads.cancel}
        onRetry={uploads.retry}
        onDismiss={uploads.dismiss}
        onClearFinished={uploads.clearFinished}
        onShow={onShow}
      />
    </>
  );
}
