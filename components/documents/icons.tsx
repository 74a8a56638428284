import clsx from 'clsx';
import type { ReactNode } from 'react';
import type { FileKind } from './document-view';

/** Small stroke icons of the documents dashboard (decorative: always aria-hidden). */
function Svg({ className, children }: { className?: string | undefined; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={clsx('h-4 w-4 flex-none', className)}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export function UploadIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M12 16V4M7 9l5-5 5 5" />
      <path d="M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4" />
    </Svg>
  );
}

export function FolderIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </Svg>
  );
}

export function InboxIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M4 13l2-8h12l2 8M4 13v6h16v-6M4 13h5l1 2h4l1-2h5" />
    </Svg>
  );
}

export function StackIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M12 3l9 5-9 5-9-5 9-5z" />
      <path d="M3 13l9 5 9-5" />
    </Svg>
  );
}

export function PencilIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M4 20h4L19 9l-4-4L4 16v4z" />
      <path d="M13.5 6.5l4 4" />
    </Svg>
  );
}

export function TrashIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </Svg>
  );
}

export function RefreshIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M20 11a8 8 0 0 0-14.9-3.5M4 4v4h4" />
      <path d="M4 13a8 8 0 0 0 14.9 3.5M20 20v-4h-4" />
    </Svg>
  );
}

export function StopIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <circle cx="12" cy="12" r="9" />
      <path d="M9 9h6v6H9z" />
    </Svg>
  );
}

export function XIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M6 6l12 12M18 6L6 18" />
    </Svg>
  );
}

export function CheckIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M5 12.5l4.5 4.5L19 7" />
    </Svg>
  );
}

export function AlertIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M12 4l9 16H3z" />
      <path d="M12 10v4M12 17h.01" />
    </Svg>
  );
}

export function InfoIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </Svg>
  );
}

export function SearchIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <circle cx="11" cy="11" r="6" />
      <path d="M20 20l-4.5-4.5" />
    </Svg>
  );
}

export function PlusIcon({ className }: { className?: string }) {
  return (
    <Svg className={className}>
      <path d="M12 5v14M5 12h14" />
    </Svg>
  );
}

const KIND_STYLE: Record<FileKind, { label: string; className: string }> = {
  pdf: { label: 'PDF', className: 'bg-red-50 text-red-700 ring-red-200' },
  docx: { label: 'DOC', className: 'bg-blue-50 text-blue-700 ring-blue-200' },
  xlsx: { label: 'XLS', className: 'bg-emerald-50 text-emerald-700 ring-emerald-200' },
  csv: { label: 'CSV', className: 'bg-teal-50 text-teal-700 ring-teal-200' },
  html: { label: 'HTML', className: 'bg-orange-50 text-orange-700 ring-orange-200' },
  markdown: { label: 'MD', className: 'bg-violet-50 text-violet-700 ring-violet-200' },
  text: { label: 'TXT', className: 'bg-slate-100 text-slate-700 ring-slate-200' },
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
