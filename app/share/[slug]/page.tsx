import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Logo } from '@/components/logo';
import { SharedAnswer } from '@/components/share/shared-answer';
import { findPublicSnapshot } from '@/lib/db/shares';

// A read-only, frozen snapshot for anyone with the link. It reads the share row and nothing else: no live
// documents, chunks or other answers are reachable from here.

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ slug: string }> };

function clip(text: string, n: number): string {
  const flat = text
    .replace(/\[\d+\]/g, '')
    .replace(/[#*_`>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const snapshot = await findPublicSnapshot(slug);
  const robots = { index: false, follow: false, nocache: true, googleBot: { index: false, follow: false } };
  if (!snapshot) return { title: 'Not found', robots, referrer: 'no-referrer' };
  const title = clip(snapshot.question, 90);
  const description = clip(snapshot.answer, 200);
  return {
    title,
    description,
    robots,
    referrer: 'no-referrer',
    openGraph: { title, description, type: 'article', siteName: 'DocuChat' },
    twitter: { card: 'summary', title, description },
  };
}

const confidenceStyle = {
  high: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  medium: 'bg-amber-50 text-amber-800 ring-amber-200',
  low: 'bg-slate-100 text-slate-700 ring-slate-200',
} as const;

export default async function SharePage({ params }: Props) {
  const { slug } = await params;
  const snapshot = await findPublicSnapshot(slug);
  if (!snapshot) notFound();
  const answered = new Date(snapshot.answeredAt);
  const model = snapshot.models.extractive
    ? 'extractive (no language model)'
    : (snapshot.models.synthesis ?? snapshot.models.decision ?? 'unknown model');
  const redacted = snapshot.citations.some((c) => c.redacted);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <header className="mb-8 flex items-center gap-2 text-sm text-slate-500">
        <Logo className="h-6 w-6" />
        <span className="font-semibold text-slate-800">DocuChat</span>
        <span aria-hidden>·</span>
        <span>Shared answer (read-only snapshot)</span>
      </header>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900" data-testid="shared-question">
        {snapshot.question}
      </h1>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <span className={`rounded-full px-2 py-0.5 font-medium ring-1 ${confidenceStyle[snapshot.confidence]}`}>
          {snapshot.confidence} confidence
        </span>
        <span>Answered {answered.toISOString().slice(0, 10)}</span>
        <span aria-hidden>·</span>
        <span>Model: {model}</span>
        <span aria-hidden>·</span>
        <span>
          {snapshot.trace.searches.length} searches, {snapshot.trace.citationsOpened} sources opened,{' '}
          {snapshot.trace.validationPassed
            ? 'validation passed'
            : 'best grounded version (validation not fully passed)'}
        </span>
      </div>
      {redacted ? (
        <p
          className="mt-4 rounded-lg border border-slate-200 bg-slate-100 px-4 py-3 text-sm text-slate-700"
          role="note"
        >
          Some sources were deleted by their owner after this answer was shared; their quotes are no longer shown.
        </p>
      ) : null}
      <div className="mt-8">
        <SharedAnswer snapshot={snapshot} />
      </div>
      {snapshot.trace.searches.length > 0 ? (
        <details className="mt-8 rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">How this answer was found</summary>
          <ol className="mt-3 list-decimal space-y-1 pl-6 text-slate-600">
            {snapshot.trace.searches.map((s, i) => (
              // the list is frozen: position is a stable identity
              // biome-ignore lint/suspicious/noArrayIndexKey: frozen snapshot list
              <li key={i}>
                {s.tool.replace('_', ' ')}: “{s.query}” — {s.hits} hits
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <footer className="mt-12 text-xs text-slate-400">
        A frozen copy made when the answer was shared. It shows only the passages the answer cites.
      </footer>
    </main>
  );
}
