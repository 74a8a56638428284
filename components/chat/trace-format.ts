import type { LimitName, ToolName } from '@/lib/agent/events';
import type { Confidence } from '@/lib/agent/types';

/** Plain-language labels for the trace timeline and the answer's badges. */

const TOOL_LABELS: Record<ToolName, string> = {
  search_docs: 'Search',
  search_text: 'Keyword search',
  search_semantic: 'Semantic search',
  open_citation: 'Open source',
  get_document_metadata: 'Read document details',
  follow_reference: 'Follow reference',
  search_sections: 'Section search',
  visual_interpretation: 'Read page image',
  read_opening: 'Read document opening',
};

/** A short human label for a tool. */
export function toolLabel(tool: ToolName): string {
  return TOOL_LABELS[tool];
}

/** Whether a tool searches (its card shows a query and a hit count). */
export function isSearchTool(tool: ToolName): boolean {
  return (
    tool === 'search_docs' ||
    tool === 'search_text' ||
    tool === 'search_semantic' ||
    tool === 'follow_reference' ||
    tool === 'search_sections' ||
    tool === 'read_opening'
  );
}

const LIMIT_LABELS: Record<LimitName, string> = {
  tool_calls: 'Tool call budget reached',
  iterations: 'Step limit reached',
  reprompts: 'Rewrite limit reached',
  wall_clock: 'Time limit reached',
  evidence_tokens: 'Evidence trimmed to fit',
  context_citations: 'Source limit reached',
  follow_depth: 'Reference depth limit reached',
  follow_tokens: 'Reference budget reached',
  follow_convergence: 'Reference following converged',
  malformed_actions: 'Model output unusable',
};

/** A short human label for a limit that bit. */
export function limitLabel(limit: LimitName): string {
  return LIMIT_LABELS[limit];
}

const FALLBACK_STAGES: Record<string, string> = {
  constraints: 'Reading the requirements without a model',
  plan: 'Default plan used',
  decision: 'Extractive policy took over the steps',
  synthesis: 'No model answered: extractive mode',
  quality: 'Quality check skipped',
  embedding: 'Semantic search unavailable: keyword search used',
};

/** The headline of a fallback event. */
export function fallbackLabel(stage: string): string {
  return FALLBACK_STAGES[stage] ?? `Fallback (${stage})`;
}

const CONFIDENCE_TEXT: Record<Confidence, string> = {
  high: 'High: the answer passed every check, cites its sources, and at least 80% of its sentences are backed by the quoted passages. Nothing asked for was missing.',
  medium:
    'Medium: the answer passed the checks and cites its sources, but some sentences are less directly backed, part of the question was not covered, or a document contained planted instructions or a cited passage reads like instructions to an AI.',
  low: 'Low: the answer could not be fully validated, cites nothing, or fewer than half of its sentences are backed by the sources. Read the sources before relying on it.',
};

/** The tooltip text for a confidence badge. */
export function confidenceExplanation(confidence: Confidence): string {
  return CONFIDENCE_TEXT[confidence];
}

const FLAG_TEXT: Record<string, string> = {
  injection_in_context: 'A document contained instructions aimed at the assistant; they were ignored.',
  cites_instruction_like_text:
    'A cited passage contains text that reads like instructions to an AI. It is shown as what the document says; nothing in it was followed.',
  injection_attempt_blocked: 'The assistant tried to act on text planted in a document; that step was blocked.',
  prompt_injection: 'The question looked like an attempt to change the assistant’s rules, so it was not run.',
  empty_knowledge_base: 'You have no indexed documents yet, so there was nothing to search.',
  question_too_short: 'The question was too short to search for; add a few words.',
  question_too_long: 'The question was too long; shorten it and ask again.',
  empty_question: 'The question was empty.',
  extractive_mode: 'No language model answered, so the answer quotes sentences from your documents.',
};

/** A plain-words explanation of a safety flag (unknown flags are humanised, never dropped). */
export function safetyFlagExplanation(flag: string): string {
  return FLAG_TEXT[flag] ?? `${flag.replace(/_/g, ' ')}.`;
}

const CHECK_TEXT: Record<string, string> = {
  process: 'Process check',
  draft: 'Answer check',
};

/** "Answer check 2" / "Process check 1". */
export function validationLabel(stage: 'process' | 'draft', attempt: number): string {
  return `${CHECK_TEXT[stage] ?? 'Check'} ${attempt}`;
}

/** 12 → "12 ms", 1534 → "1.5 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The query of a search from its result summary (`12 hits for "x"`), for traces saved without the call. */
export function queryFromSummary(summary: string): string | null {
  const match = /(?:hits for|No results for|Followed) "([^"]*)"/.exec(summary);
  return match?.[1] ?? null;
}

/**
 * "page 3" / "sheet Budget" / "Intro › Setup" / "" for a cited location. A table found in a PDF or DOCX is a
 * sheet-like unit named "Table n" inside its page or section: "page 3 · Table 1", "Results · Table 2".
 */
export function locationLabel(loc: { page: number | null; sheet: string | null; headingPath: string | null }): string {
  if (loc.page !== null) return loc.sheet ? `page ${loc.page} · ${loc.sheet}` : `page ${loc.page}`;
  if (loc.sheet) return loc.headingPath ? `${loc.headingPath} · ${loc.sheet}` : `sheet ${loc.sheet}`;
  if (loc.headingPath) return loc.headingPath;
  return '';
}

// ---------------------------------------------------------------------------------------------------------------
// Plain-language steps. The trace speaks to the person who asked: what was searched, what was read, what was
// checked. Tool names, result handles (r1), internal source numbers, error codes and timings are technical detail,
// shown behind a disclosure.

/** A source as the answer cites it: its number in the answer and its name. */
export interface CitedSource {
  n: number;
  openedAs?: number | undefined;
  title: string | null;
  filename: string;
}

/**
 * The answer's numbering for the trace: the number a source had when it was opened during the run → the number
 * the answer uses for it. Sources opened but not cited have no entry.
 */
export function answerNumbers(citations: readonly CitedSource[]): Map<number, CitedSource> {
  const map = new Map<number, CitedSource>();
  for (const c of citations) if (c.openedAs !== undefined) map.set(c.openedAs, c);
  return map;
}

/** What an `open_citation` result summary says: `Opened r1 as [3]: refund.md p.4 (1.2 KB)`. */
export interface OpenedSummary {
  handle: string;
  openedAs: number;
  filename: string;
  page: number | null;
  sheet: string | null;
}

export function parseOpenedSummary(summary: string): OpenedSummary | null {
  const m = /^Opened (\S+) as \[(\d+)\]: (.+?)(?: p\.(\d+)| sheet (.+?))? \([\d.]+ KB\)$/.exec(summary);
  if (!m?.[1] || !m[2] || !m[3]) return null;
  return {
    handle: m[1],
    openedAs: Number(m[2]),
    filename: m[3],
    page: m[4] ? Number(m[4]) : null,
    sheet: m[5] ?? null,
  };
}

const passages = (n: number) => (n === 0 ? 'no passages found' : `${n} passage${n === 1 ? '' : 's'}`);

/** "Searched your documents for "refund policy" — 12 passages". */
export function searchSentence(query: string | null, hits: number | null): string {
  const target = query ? ` for “${query}”` : '';
  return hits === null ? `Searching your documents${target}…` : `Searched your documents${target} — ${passages(hits)}`;
}

/** "Read the opening of “report.pdf” — 2 passages", or of "your documents" when no name was asked. */
export function openingSentence(name: string | null, hits: number | null): string {
  const target = name ? `“${name}”` : 'your documents';
  return hits === null ? `Reading the opening of ${target}…` : `Read the opening of ${target} — ${passages(hits)}`;
}

/**
 * "Opened page 4 of Refund policy 2025 — cited as [1]". The name is the cited title when the answer cites the
 * source, else the file name; the number is the answer's, never the run's internal one.
 */
export function openedSentence(opened: OpenedSummary, numbers: ReadonlyMap<number, CitedSource> | null): string {
  const cited = numbers?.get(opened.openedAs);
  const name = cited ? cited.title || cited.filename : opened.filename;
  const where = opened.page !== null ? `page ${opened.page} of ` : opened.sheet ? `sheet ${opened.sheet} of ` : '';
  const tail = numbers === null ? '' : cited ? ` — cited as [${cited.n}]` : ' — not cited in the answer';
  return `Opened ${where}${name}${tail}`;
}

const ISSUE_WORDS: Record<string, [one: string, many: string]> = {
  QUOTE_NOT_FOUND: ['quote not found in the sources', 'quotes not found in the sources'],
  QUOTE_REQUIRED: ['required quote missing', 'required quotes missing'],
  UNGROUNDED_TERM: ['number or name not found in the sources', 'numbers or names not found in the sources'],
  INVALID_CITATION: ['reference to a source that was not opened', 'references to sources that were not opened'],
  NO_CITATIONS: ['claim without a source', 'claims without a source'],
  EMPTY_ANSWER: ['empty answer', 'empty answers'],
  SECTION_MISSING: ['requested section missing', 'requested sections missing'],
  INSUFFICIENCY_PHRASE_MISSING: ['gap not stated as asked', 'gaps not stated as asked'],
  INJECTION_PAYLOAD: ['instruction copied from a document', 'instructions copied from a document'],
  MIN_SEARCHES_UNMET: ['search still needed', 'searches still needed'],
  TOPIC_NOT_SEARCHED: ['topic not searched yet', 'topics not searched yet'],
  MIN_OPEN_CITATIONS_UNMET: ['source still to be read', 'sources still to be read'],
};

/** "1 quote not found in the sources, 2 numbers or names not found in the sources" from a check's issues. */
export function issuesSentence(errors: ReadonlyArray<{ code: string }>): string {
  const counts = new Map<string, number>();
  for (const e of errors) counts.set(e.code, (counts.get(e.code) ?? 0) + 1);
  return [...counts]
    .map(([code, count]) => {
      const words = ISSUE_WORDS[code];
      const text = words ? words[count === 1 ? 0 : 1] : code.toLowerCase().replace(/_/g, ' ');
      return `${count} ${text}`;
    })
    .join(', ');
}

/** "Checked the draft: every quote and number is in the sources" / "Checked the draft: 1 quote not found … — rewriting". */
export function checkSentence(
  stage: 'process' | 'draft',
  passed: boolean,
  errors: ReadonlyArray<{ code: string }>,
  rewriting: boolean,
): string {
  if (stage === 'process')
    return passed ? 'Checked the research: enough was read' : `Checked the research: ${issuesSentence(errors)}`;
  if (passed) return 'Checked the draft: its quotes, numbers and sources match your documents';
  return `Checked the draft: ${issuesSentence(errors) || 'it did not match the sources'}${rewriting ? ' — rewriting' : ''}`;
}
