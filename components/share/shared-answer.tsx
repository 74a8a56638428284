'use client';

import { useMemo, useState } from 'react';
import { InstructionLikeNote } from '@/components/chat/instruction-like-note';
import { locationLabel } from '@/components/chat/trace-format';
import { displayTitle } from '@/components/documents/display-title';
import { EvidenceText } from '@/components/documents/evidence-text';
import { SafeMarkdown } from '@/components/markdown/safe-markdown';
import type { ShareSnapshot, SnapshotCitation } from '@/lib/share/snapshot';

function location(c: SnapshotCitation): string {
  return locationLabel(c);
}

/** The quoted span inside the cited chunk text (offsets when they match, else a search for the quote). */
function locateQuote(c: SnapshotCitation): { start: number | null; end: number | null } {
  if (!c.text || !c.quote) return { start: null, end: null };
  if (c.quoteStart !== null && c.quoteEnd !== null && c.text.slice(c.quoteStart, c.quoteEnd) === c.quote) {
    return { start: c.quoteStart, end: c.quoteEnd };
  }
  const at = c.text.indexOf(c.quote);
  return at >= 0 ? { start: at, end: at + c.quote.length } : { start: null, end: null };
}

/** The body of a share page: the answer with clickable [n], and the evidence for each marker. */
export function SharedAnswer({ snapshot }: { snapshot: ShareSnapshot }) {
  const [open, setOpen] = useState<number | null>(null);
  const known = useMemo(() => new Set(snapshot.citations.map((c) => c.n)), [snapshot.citations]);
  const cite = (n: number) => {
    setOpen(n);
    document.getElementById(`source-${n}`)?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  };
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
      <article className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="shared-answer">
        <SafeMarkdown text={snapshot.answer} onCite={cite} knownCitations={known} />
        {snapshot.report ? (
          <section className="mt-6 border-t border-slate-100 pt-4 text-sm" data-testid="shared-report-sources">
            <h2 className="font-semibold text-slate-800">Sources by section</h2>
            <ul className="mt-2 space-y-1 text-slate-700">
              {snapshot.report.sections.map((section) => (
                <li key={section.heading}>
                  <span className="font-medium">{section.heading}:</span>{' '}
                  {section.sources.length === 0
                    ? 'no source'
                    : section.sources.map((n) => {
                        const c = snapshot.citations.find((x) => x.n === n);
                        return (
                          <button
                            key={n}
                            type="button"
                            onClick={() => cite(n)}
                            className="mr-1 rounded px-1 text-brand-700 underline decoration-brand-300 underline-offset-2 hover:bg-brand-50"
                            aria-label={`Source ${n}${c ? `: ${c.filename}` : ''}`}
                          >
                            [{n}] {c?.filename ?? ''}
                          </button>
                        );
                      })}
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-slate-500">Research report · quality {snapshot.report.quality}/100</p>
          </section>
        ) : null}
        {snapshot.insufficiencies.length > 0 ? (
          <div
            className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm"
            data-testid="insufficiencies"
          >
            <h2 className="font-semibold text-amber-900">Not in the documents</h2>
            <ul className="mt-2 space-y-2 text-amber-900">
              {snapshot.insufficiencies.map((item) => (
                <li key={`${item.section}-${item.missing}`}>
                  <span className="font-medium">{item.section}:</span> {item.missing}
                  {item.queriesTried.length > 0 ? (
                    <span className="block text-xs text-amber-800/80">
                      Searched for: {item.queriesTried.join('; ')}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </article>
      <aside aria-label="Sources" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Sources</h2>
        {snapshot.citations.length === 0 ? (
          <p className="text-sm text-slate-500">This answer cites no sources.</p>
        ) : null}
        {snapshot.citations.map((c) => {
          const { start, end } = locateQuote(c);
          const isOpen = open === c.n;
          const name = displayTitle(c);
          return (
            <section
              key={c.n}
              id={`source-${c.n}`}
              data-testid="share-source"
              className={`rounded-lg border bg-white p-4 text-sm shadow-sm transition ${isOpen ? 'border-brand-500 ring-2 ring-brand-200' : 'border-slate-200'}`}
            >
              <button
                type="button"
                onClick={() => setOpen(isOpen ? null : c.n)}
                className="flex w-full items-start gap-2 text-left"
              >
                <span className="font-mono font-semibold text-brand-700">[{c.n}]</span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900" title={name}>
                    {name}
                  </span>
                  <span className="block truncate text-xs text-slate-500" data-testid="share-source-location">
                    {[name !== c.filename ? c.filename : null, location(c)].filter(Boolean).join(' · ')}
                  </span>
                </span>
              </button>
              {c.redacted ? (
                <p className="mt-3 rounded bg-slate-100 px-3 py-2 text-slate-600" data-testid="redacted-source">
                  Source deleted by its owner: the quoted text is no longer shown.
                </p>
              ) : (
                <>
                  {c.instructionLike ? (
                    <div className="mt-3">
                      <InstructionLikeNote />
                    </div>
                  ) : null}
                  {c.quote ? (
                    <blockquote className="mt-3 border-l-4 border-amber-300 pl-3 text-slate-800">
                      “{c.quote}”
                    </blockquote>
                  ) : null}
                  {isOpen && c.text ? (
                    <div
                      className="mt-3 max-h-80 overflow-y-auto rounded bg-slate-50 p-3 text-slate-700"
                      data-testid="source-text"
                    >
                      <EvidenceText
                        text={c.text}
                        sheet={c.sheet}
                        chunk={null}
                        quote={start !== null && end !== null ? { start, end } : null}
                        compact
                      />
                    </div>
                  ) : null}
                  {c.sha256 ? (
                    <p
                      className="mt-2 break-all font-mono text-[0.7rem] text-slate-400"
                      title="SHA-256 of the cited document's file"
                    >
                      sha256 {c.sha256}
                    </p>
                  ) : null}
                </>
              )}
            </section>
          );
        })}
      </aside>
    </div>
  );
}
