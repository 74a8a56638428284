import clsx from 'clsx';
import type { ReactNode } from 'react';

/**
 * Stroke icons of the app (24×24 grid, currentColor); decorative, hidden from assistive tech. A `className` replaces
 * the default size (h-4 w-4), so it must carry its own size; icons never shrink in a flex row.
 */
function Icon({ className, children }: { className?: string | undefined; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={clsx('flex-none', className ?? 'h-4 w-4')}
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

type P = { className?: string };

export const PlusIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);
export const PencilIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" />
  </Icon>
);
export const TrashIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Icon>
);
export const XIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);
export const CheckIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </Icon>
);
export const SendIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M5 12h13M13 6l6 6-6 6" />
  </Icon>
);
export const StopIcon = ({ className }: P) => (
  <Icon className={className}>
    <rect x="7" y="7" width="10" height="10" rx="1.5" />
  </Icon>
);
export const SearchIcon = ({ className }: P) => (
  <Icon className={className}>
    <circle cx="11" cy="11" r="6" />
    <path d="M20 20l-4.5-4.5" />
  </Icon>
);
export const FileIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M7 3h7l5 5v12a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z" />
    <path d="M14 3v5h5" />
  </Icon>
);
export const ListIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />
  </Icon>
);
export const ShieldIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6l8-3z" />
  </Icon>
);
export const AlertIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M12 4l9 16H3L12 4zM12 10v4M12 17h.01" />
  </Icon>
);
export const InfoIcon = ({ className }: P) => (
  <Icon className={className}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </Icon>
);
export const ChevronIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M9 6l6 6-6 6" />
  </Icon>
);
export const FilterIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M4 5h16l-6 7v6l-4 2v-8L4 5z" />
  </Icon>
);
export const ShareIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M8 12h.01M16 6h.01M16 18h.01" />
    <circle cx="6" cy="12" r="2.5" />
    <circle cx="18" cy="6" r="2.5" />
    <circle cx="18" cy="18" r="2.5" />
    <path d="M8.2 10.9l7.6-3.8M8.2 13.1l7.6 3.8" />
  </Icon>
);
export const CopyIcon = ({ className }: P) => (
  <Icon className={className}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V5a1 1 0 0 1 1-1h10" />
  </Icon>
);
export const MenuIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Icon>
);
export const SparkIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6" />
  </Icon>
);
export const ExternalIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </Icon>
);

export const UploadIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M12 16V4M7 9l5-5 5 5" />
    <path d="M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4" />
  </Icon>
);
export const FolderIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
  </Icon>
);
export const InboxIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M4 13l2-8h12l2 8M4 13v6h16v-6M4 13h5l1 2h4l1-2h5" />
  </Icon>
);
export const StackIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M12 3l9 5-9 5-9-5 9-5z" />
    <path d="M3 13l9 5 9-5" />
  </Icon>
);
export const RefreshIcon = ({ className }: P) => (
  <Icon className={className}>
    <path d="M20 11a8 8 0 0 0-14.9-3.5M4 4v4h4" />
    <path d="M4 13a8 8 0 0 0 14.9 3.5M20 20v-4h-4" />
  </Icon>
);
/** Cancel a running job (StopIcon stops a streaming answer). */
export const StopCircleIcon = ({ className }: P) => (
  <Icon className={className}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9 9h6v6H9z" />
  </Icon>
);

/** A small spinning ring for work in progress. */
export function Spinner({ className = 'h-3.5 w-3.5' }: P) {
  return (
    <svg viewBox="0 0 24 24" className={`animate-spin ${className}`} aria-hidden="true">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="3" className="opacity-25" />
      <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
