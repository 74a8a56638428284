import clsx from 'clsx';
import { clampProgress, TRACK_STAGES } from './document-view';

/**
 * A segmented progress bar, one segment per stage: earlier segments full, the current one filled by
 * `fraction` (or pulsing when `fraction` is null, i.e. waiting with nothing to measure), later ones empty.
 */
export function StageTrack({
  index,
  fraction,
  label,
  valueText,
  valueNow,
  tone = 'brand',
  stages = TRACK_STAGES,
}: {
  index: number;
  fraction: number | null;
  label: string;
  valueText: string;
  valueNow?: number;
  tone?: 'brand' | 'sky';
  /** The segments drawn (see trackStages: no Embed segment without an embedder). */
  stages?: readonly string[];
}) {
  const fill = tone === 'sky' ? 'bg-sky-500' : 'bg-brand-600';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={valueNow}
      aria-valuetext={valueText}
      className="flex w-full gap-0.5"
    >
      {stages.map((name, i) => (
        <div key={name} title={name} className="relative h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200/90">
          {i < index ? <div className={clsx('absolute inset-0', fill)} /> : null}
          {i === index ? (
            fraction === null ? (
              <div className={clsx('absolute inset-0 animate-pulse opacity-50', fill)} />
            ) : (
              <div
                className={clsx('absolute inset-y-0 left-0 transition-[width] duration-500 ease-out', fill)}
                style={{ width: `${Math.max(8, clampProgress(fraction) * 100)}%` }}
              />
            )
          ) : null}
        </div>
      ))}
    </div>
  );
}
