'use client';

import clsx from 'clsx';
import { useId, useState } from 'react';
import { AlertIcon, InfoIcon, SearchIcon, ShieldIcon } from '@/components/icons';
import type { Confidence } from '@/lib/agent/types';
import type { ChatResult } from '@/lib/chat/message';
import { keyed } from './keyed';
import { confidenceExplanation, safetyFlagExplanation } from './trace-format';

const CONFIDENCE_STYLE: Record<Confidence, string> = {
  high: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  medium: 'bg-amber-50 text-amber-800 ring-amber-200',
  low: 'bg-red-50 text-red-700 ring-red-200',
};

/** A confidence badge whose explanation shows on hover and keyboard focus (and is its accessible description). */
export function ConfidenceBadge({ confidence }: { confidence: Confidence }) {
  const [show, setShow] = useState(false);
  const tipId = useId();
  return (
    <span className="relative inline-flex">
      <button
        type="button"
        aria-describedby={tipId}
        onMouseEnter={() => setShow(true)}
        onMouseLeave={() => setShow(false)}
        onFocus={() => setShow(true)}
        onBlur={() => setShow(false)}
        onClick={() => setShow((s) => !s)}
        className={clsx(
          'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
          CONFIDENCE_STYLE[confidence],
        )}
        data-testid="confidence"
      >
        <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-current" />
        {confidence[0]?.toUpperCase()}
        {confidence.slice(1)} confidence
      </button>
      <span
        id={tipId}
        role="tooltip"
        className={clsx(
          'absolute bottom-full left-0 z-20 mb-2 w-72 rounded-md bg-slate-900 px-3 py-2 text-xs leading-relaxed text-white shadow-lg',
          show ? 'block' : 'hidden',
        )}
      >
        {confidenceExplanation(confidence)}
      </span>
    </span>
  );
}

/** The parts of a result that are not the answer text: gaps, a clarifying question, safety and validation notes. */
export function AnswerNotes({ result }: { result: ChatResult }) {
  const flags = result.safetyFlags.filter((f) => f !== 'extractive_mode');
  return (
    <div className="space-y-3">
      {result.clarification ? (
        <div className="rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm" data-testid="clarification">
          <p className="flex items-center gap-1.5 font-semibold text-brand-900">
            <InfoIcon /> A question for you
          </p>
          <p className="mt-1 text-slate-800">{result.clarification.question}</p>
          {result.clarification.details ? (
            <p className="mt-1 text-xs text-slate-600">{result.clarification.details}</p>
          ) : null}
          <p className="mt-2 text-xs text-slate-500">
            Answer it in your next message and the search continues from there.
          </p>
        </div>
      ) : null}
      {result.insufficiencies.length > 0 ? (
        <div className="rounded-lg border border-amber-200 bg-amber-50/70 p-3 text-sm" data-testid="insufficiencies">
          <ul className="space-y-2">
            {keyed(result.insufficiencies, (x) => `${x.section}:${x.missing}`).map(({ key, item }) => (
              <li key={key}>
                <p className="text-amber-950">
                  <span className="font-semibold">Not in your documents:</span> {item.missing}
                  {item.section && item.section !== item.missing ? (
                    <span className="text-amber-800"> ({item.section})</span>
                  ) : null}
                </p>
                {item.queriesTried.length > 0 ? (
                  <p className="mt-0.5 flex flex-wrap items-center gap-1 text-xs text-amber-900/80">
                    <SearchIcon className="h-3 w-3" /> searched for:
                    {keyed(item.queriesTried, (q) => q).map(({ key: qKey, item: q }) => (
                      <span key={qKey} className="rounded bg-white/70 px-1 font-mono">
                        {q}
                      </span>
                    ))}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {!result.validated && result.status === 'complete' && !result.clarification && result.answer.trim() ? (
        <p className="flex gap-1.5 text-xs text-slate-600" data-testid="not-validated">
          <AlertIcon className="mt-0.5 h-3.5 w-3.5 flex-none text-amber-600" />
          <span>
            <strong className="font-semibold">Best grounded version:</strong> the answer did not pass every check, so
            sentences that the sources do not support were removed.
          </span>
        </p>
      ) : null}
      {result.strippedMarkers.length > 0 ? (
        <p className="flex gap-1.5 text-xs text-slate-600">
          <InfoIcon className="mt-0.5 h-3.5 w-3.5 flex-none text-slate-400" />
          <span>
            Citation {result.strippedMarkers.map((n) => `[${n}]`).join(', ')} pointed at no opened source and was
            removed.
          </span>
        </p>
      ) : null}
      {flags.length > 0 ? (
        <ul className="space-y-1" data-testid="safety-flags">
          {flags.map((flag) => (
            <li key={flag} className="flex gap-1.5 text-xs text-slate-700">
              <ShieldIcon className="mt-0.5 h-3.5 w-3.5 flex-none text-violet-600" />
              <span>{safetyFlagExplanation(flag)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
