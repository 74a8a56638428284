import clsx from 'clsx';
import type { FileKind } from './document-view';

const KIND_STYLE: Record<FileKind, { label: string; className: string }> = {
  pdf: { label: 'PDF', className: 'bg-red-50 text-red-700 ring-red-200' },
  docx: { label: 'DOC', className: 'bg-blue-50 text-blue-700 ring-blue-200' },
  xlsx: { label: 'XLS', className: 'bg-emerald-50 text-emerald-700 ring-emerald-200' },
  csv: { label: 'CSV', className: 'bg-teal-50 text-teal-700 ring-teal-200' },
  html: { label: 'HTML', className: 'bg-orange-50 text-orange-700 ring-orange-200' },
  markdown: { label: 'MD', className: 'bg-violet-50 text-violet-700 ring-violet-200' },
  text: { label: 'TXT', className: 'bg-slate-100 text-slate-700 ring-slate-200' },
  pptx: { label: 'PPT', className: 'bg-amber-50 text-amber-700 ring-amber-200' },
  odt: { label: 'ODT', className: 'bg-blue-50 text-blue-700 ring-blue-200' },
  ods: { label: 'ODS', className: 'bg-emerald-50 text-emerald-700 ring-emerald-200' },
  odp: { label: 'ODP', className: 'bg-amber-50 text-amber-700 ring-amber-200' },
  rtf: { label: 'RTF', className: 'bg-sky-50 text-sky-700 ring-sky-200' },
  epub: { label: 'EPUB', className: 'bg-fuchsia-50 text-fuchsia-700 ring-fuchsia-200' },
  email: { label: 'MAIL', className: 'bg-indigo-50 text-indigo-700 ring-indigo-200' },
  zip: { label: 'ZIP', className: 'bg-stone-100 text-stone-700 ring-stone-200' },
  image: { label: 'IMG', className: 'bg-pink-50 text-pink-700 ring-pink-200' },
  file: { label: 'FILE', className: 'bg-slate-100 text-slate-600 ring-slate-200' },
};

/** A coloured file-type tile ("PDF", "DOC" …); decorative, the type is also written out in the row. */
export function FileKindTile({ kind }: { kind: FileKind }) {
  const style = KIND_STYLE[kind];
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'flex h-10 w-10 flex-none items-center justify-center rounded-lg text-[10px] font-bold tracking-wide ring-1 ring-inset',
        style.className,
      )}
    >
      {style.label}
    </span>
  );
}
