import clsx from 'clsx';
import { clampProgress, percent } from './document-view';

/**
 * A labelled progress bar. `value` null draws an indeterminate bar (work with no measurable progress yet, e.g.
 * the server reading an upload); `tone` colours it for uploads, server work, success or failure.
 */
export function ProgressBar({
  value,
  label,
  valueText,
  tone = 'brand',
}: {
  value: number | null;
  label: string;
  valueText: string;
  tone?: 'brand' | 'sky' | 'emerald' | 'red';
}) {
  const fill = {
    brand: 'bg-brand-600',
    sky: 'bg-sky-500',
    emerald: 'bg-emerald-500',
    red: 'bg-red-500',
  }[tone];
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value === null ? undefined : percent(value)}
      aria-valuetext={valueText}
      className="relative h-1.5 w-full overflow-hidden rounded-full bg-slate-200/80"
    >
      {value === null ? (
        <div className={clsx('h-full w-full animate-pulse rounded-full opacity-60', fill)} />
      ) : (
        <div
          className={clsx('h-full rounded-full transition-[width] duration-500 ease-out', fill)}
          style={{ width: `${Math.max(2, clampProgress(value) * 100)}%` }}
        />
      )}
    </div>
  );
}
