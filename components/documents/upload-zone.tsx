'use client';

import clsx from 'clsx';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { FolderIcon, UploadIcon } from '@/components/icons';
import type { BucketSummary } from '@/lib/db/buckets';
import { ACCEPTED_FILE_TYPES } from './document-view';

/** The formats the upload reads, in the words people know them by (docs/formats.md has the full list). */
const FORMAT_SUMMARY = 'PDF, Office and OpenDocument files, e-mails, e-books, images, ZIP, CSV, HTML, Markdown or text';

const FORMATS = [
  'PDF (scans by OCR)',
  'Word (DOCX, DOC)',
  'Excel (XLSX, XLS)',
  'PowerPoint (PPTX)',
  'OpenDocument',
  'EPUB',
  'RTF',
  'E-mail (EML, MSG)',
  'ZIP',
  'Images (OCR)',
  'CSV',
  'HTML',
  'Markdown',
  'Text',
];

/** Files of a drop, without folders (which browsers list as entries but cannot send). */
function filesFromDrop(data: DataTransfer): { files: File[]; folders: number } {
  const files: File[] = [];
  let folders = 0;
  const items = Array.from(data.items ?? []);
  if (items.length > 0 && typeof items[0]?.webkitGetAsEntry === 'function') {
    for (const item of items) {
      if (item.kind !== 'file') continue;
      const entry = item.webkitGetAsEntry();
      if (entry?.isDirectory) {
        folders += 1;
        continue;
      }
      const file = item.getAsFile();
      if (file) files.push(file);
    }
    return { files, folders };
  }
  return { files: Array.from(data.files), folders };
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Where uploads start: the "Choose files" picker (many files at once), the target bucket, and the whole page as
 * a drop target with a full-screen highlight while files are dragged over it. `variant="hero"` is the
 * first-run empty state with guidance on what to upload.
 */
export function UploadZone({
  variant,
  buckets,
  target,
  onTargetChange,
  onFiles,
}: {
  variant: 'hero' | 'compact';
  buckets: readonly BucketSummary[];
  target: string | null;
  onTargetChange: (bucketId: string | null) => void;
  onFiles: (files: File[]) => void;
}) {
  const inputId = useId();
  const targetId = useId();
  const [dragging, setDragging] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const depth = useRef(0);
  const onFilesRef = useRef(onFiles);
  useEffect(() => {
    onFilesRef.current = onFiles;
  });

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 6000);
    return () => clearTimeout(timer);
  }, [notice]);

  // The whole window is the drop target.
  useEffect(() => {
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event) || !event.dataTransfer) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const { files, folders } = filesFromDrop(event.dataTransfer);
      if (folders > 0) {
        setNotice(
          folders === 1
            ? 'A folder cannot be uploaded as a whole: open it and drop or choose the files inside.'
            : `${folders} folders were skipped: open them and drop or choose the files inside.`,
        );
      }
      if (files.length > 0) onFilesRef.current(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // reset so choosing the same file again still triggers a change
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  }

  const targetName = target ? buckets.find((b) => b.id === target)?.name : undefined;

  const picker = (
    <>
      <input
        id={inputId}
        type="file"
        multiple
        accept={ACCEPTED_FILE_TYPES}
        onChange={onPick}
        className="peer sr-only"
        data-testid="file-input"
      />
      <label
        htmlFor={inputId}
        className={clsx(
          'inline-flex cursor-pointer items-center justify-center gap-1.5 rounded-md bg-brand-600 font-medium text-white shadow-sm transition-colors hover:bg-brand-700',
          'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500',
          variant === 'hero' ? 'px-4 py-2.5 text-sm' : 'px-3.5 py-2 text-sm',
        )}
      >
        <UploadIcon />
        Choose files
      </label>
    </>
  );

  const targetSelect = (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={targetId} className="whitespace-nowrap text-slate-600">
        Upload into
      </label>
      <select
        id={targetId}
        value={target ?? ''}
        onChange={(event) => onTargetChange(event.target.value || null)}
        className="max-w-[14rem] truncate rounded-md border border-slate-300 bg-white py-1.5 pr-8 pl-2.5 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
      >
        <option value="">No bucket</option>
        {buckets.map((bucket) => (
          <option key={bucket.id} value={bucket.id}>
            {bucket.name}
          </option>
        ))}
      </select>
    </div>
  );

  const overlay = dragging ? (
    <div
      className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-brand-600/10 p-6 backdrop-blur-[1px]"
      data-testid="drop-overlay"
    >
      <div className="absolute inset-3 rounded-3xl border-4 border-dashed border-brand-500/70" aria-hidden="true" />
      <div className="relative flex flex-col items-center rounded-2xl bg-white px-10 py-8 text-center shadow-2xl ring-1 ring-brand-200">
        <span className="mb-3 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <UploadIcon className="h-6 w-6" />
        </span>
        <p className="text-lg font-semibold text-slate-900">Drop to upload</p>
        <p className="mt-1 max-w-xs truncate text-sm text-slate-600" title={targetName}>
          {targetName ? (
            <>
              into <bdi className="font-medium text-slate-800">{targetName}</bdi>
            </>
          ) : (
            `${FORMAT_SUMMARY} · up to 100 MB each`
          )}
        </p>
      </div>
    </div>
  ) : null;

  const noticeLine = notice ? (
    <p role="status" className="mt-3 flex items-center gap-2 text-sm text-amber-800">
      <FolderIcon className="h-4 w-4 text-amber-600" />
      {notice}
    </p>
  ) : null;

  if (variant === 'hero') {
    return (
      <section
        aria-labelledby="upload-hero-title"
        className="relative overflow-hidden rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 py-12 text-center sm:px-10"
      >
        {overlay}
        <div
          className="pointer-events-none absolute inset-x-0 top-0 h-32 bg-gradient-to-b from-brand-50/80 to-transparent"
          aria-hidden="true"
        />
        <div className="relative mx-auto flex max-w-xl flex-col items-center">
          <span className="mb-4 flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-600 text-white shadow-lg shadow-brand-600/20">
            <UploadIcon className="h-7 w-7" />
          </span>
          {/* not a heading: the page's only heading naming "Documents" stays the h1 */}
          <p id="upload-hero-title" className="text-lg font-semibold text-slate-900">
            No documents yet
          </p>
          <p className="mt-2 text-sm leading-6 text-slate-600">
            Upload the documents you want to ask questions about. A good first batch is something you look things up in
            often: a contract, a policy handbook, meeting minutes or a spreadsheet of figures. Every answer in Chat
            cites the page it came from.
          </p>
          <div className="mt-6 flex flex-col items-center gap-3 sm:flex-row">
            {picker}
            <span className="text-sm text-slate-500">or drag files anywhere on this page</span>
          </div>
          {buckets.length > 0 ? <div className="mt-4">{targetSelect}</div> : null}
          <ul className="mt-6 flex flex-wrap justify-center gap-1.5" aria-label="Supported formats">
            {FORMATS.map((format) => (
              <li
                key={format}
                className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-600 ring-1 ring-inset ring-slate-200"
              >
                {format}
              </li>
            ))}
          </ul>
          <p className="mt-3 text-xs text-slate-500">Up to 100 MB per file. Choose or drop many files at once.</p>
          {noticeLine}
        </div>
      </section>
    );
  }

  return (
    <section
      aria-label="Upload documents"
      className="rounded-xl border-2 border-dashed border-slate-300 bg-white px-4 py-4 transition-colors hover:border-brand-300 sm:px-5"
    >
      {overlay}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <span
          className="hidden h-10 w-10 flex-none items-center justify-center rounded-xl bg-brand-50 text-brand-600 sm:flex"
          aria-hidden="true"
        >
          <UploadIcon className="h-5 w-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-900">Drop files anywhere on this page</p>
          <p className="text-xs text-slate-500">{FORMAT_SUMMARY} · up to 100 MB per file</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {targetSelect}
          {picker}
        </div>
      </div>
      {noticeLine}
    </section>
  );
}
