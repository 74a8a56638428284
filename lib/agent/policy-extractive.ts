import { analyze } from '@/lib/retrieval/analyzer';
import { specificWords, subQuestions, withoutInterrogatives } from './answer-type';
import type { DecisionAction } from './decision-action';
import { MAX_DOCUMENTS, overviewOpenOrder, resultsPerDocument } from './document-answer';
import type { ToolName } from './events';
import { DECLINE_ATTRIBUTE, holds, tableQuery } from './extractive-select';
import { withoutSpans } from './injection';
import { searchableQuestion } from './plan';
import { type AgentState, type ResultEntry, remainingToolCalls } from './state';
import { answersFromTable, bestTableRow, type TableQuery } from './table-answer';
import { type AskedExtreme, askedExtreme, type ExtremeContext, extremeCandidates } from './table-extreme';
import { keyTerms, termCoverage } from './text';
import { detectReferences } from './tools/references';
import type { AgentTool, ToolCall } from './tools/types';

/**
 * The deterministic decision policy of extractive mode (and the fallback for a failed model step): run the plan's
 * searches (in parallel), open the best result per query, follow one cross-reference when budget allows, then
 * finish. It never derives a query from retrieved text, so planted instructions cannot steer it.
 */

/** Sources to open for a good answer: what the question demands, else one per topic (at least two). */
export function opensWanted(state: AgentState): number {
  const c = state.constraints;
  const perTopic = Math.max(c.requiredTopics.length, c.requiredSections.length);
  // A question about documents opens one passage per matching document.
  const dq = state.plan.documents;
  // An overview opens what read_opening found (the first passages of each document), as far as the limits allow.
  if (dq?.kind === 'overview') return Math.min(state.limits.maxContextCitations, state.results.size);
  const documents = dq ? Math.min(MAX_DOCUMENTS, resultsPerDocument([...state.results.values()], dq).length) : 0;
  return Math.min(state.limits.maxContextCitations, Math.max(c.minOpenCitations, perTopic, documents, 2));
}

/** Relevance on what the document says: planted spans do not count, so they cannot pull a result in. */
function relevant(entry: ResultEntry, terms: string[]): boolean {
  const text = withoutSpans(entry.hit.text ?? entry.hit.snippet, entry.injected);
  return terms.length === 0 || termCoverage(terms, `${entry.hit.title ?? ''} ${text}`) > 0;
}

/** Whether the question is compound ("How many X …, and what is Y?"): each part is searched and answered alone. */
function isCompound(state: AgentState): boolean {
  return subQuestions(searchableQuestion(state.question), keyTerms).length > 1;
}

/** A result's text read under its document's name, title, sheet and heading (planted spans removed). */
function namedText(e: ResultEntry): string {
  const h = e.hit;
  return `${h.filename.replace(/[-_.]/g, ' ')}\n${h.title ?? ''}\n${h.sheet ?? ''}\n${h.headingPath ?? ''}\n${withoutSpans(h.text ?? h.snippet, e.injected)}`;
}

/**
 * For a compound question, the results naming what a part asks about that no opened passage names: the part's
 * names, numbers and codes (`specificWords`: "Texas" in "how many checks did Texas have in November 2015") read
 * under each passage's document name. One result per part, the one holding most of them (then the best score),
 * so each part opens the passage about its own entity, not only its document's best-scoring passage.
 */
export function partNameOpens(state: AgentState): string[] {
  if (!isCompound(state)) return [];
  const openedIds = new Set(state.opened.map((o) => o.chunk.chunkId));
  const have = new Set(
    state.opened.flatMap((o) =>
      analyze(
        `${o.chunk.filename.replace(/[-_.]/g, ' ')} ${o.chunk.title ?? ''} ${o.chunk.sheet ?? ''} ${o.chunk.headingPath ?? ''} ${o.chunk.text}`,
      ),
    ),
  );
  const picked: string[] = [];
  for (const search of state.searches) {
    const missing = [...new Set(specificWords(search.query).flatMap((w) => analyze(w)))].filter((t) => !have.has(t));
    if (missing.length === 0) continue;
    const best = [...state.results.values()]
      .filter((e) => e.queries.includes(search.query) && !openedIds.has(e.hit.chunkId) && !e.irrelevant)
      .map((e) => {
        const terms = new Set(analyze(namedText(e)));
        return { e, n: missing.filter((t) => terms.has(t)).length };
      })
      .filter((x) => x.n > 0 && !picked.includes(x.e.handle))
      .sort((a, b) => b.n - a.n || b.e.hit.score - a.e.hit.score)[0];
    if (best) picked.push(best.e.handle);
  }
  return picked;
}

/** The results to open next: the best unopened result of each query first, then the best remaining ones. */
export function chooseOpens(state: AgentState, count: number): string[] {
  const opened = new Set(state.opened.map((o) => o.chunk.chunkId));
  const entries = [...state.results.values()].filter((e) => !opened.has(e.hit.chunkId) && !e.irrelevant);
  const documents = state.plan.documents;
  if (documents?.kind === 'overview')
    return overviewOpenOrder(entries)
      .slice(0, count)
      .map((e) => e.handle);
  if (documents) {
    // One passage per matching document not opened yet.
    const done = new Set(state.opened.map((o) => o.chunk.documentId));
    return resultsPerDocument(entries, documents)
      .filter((e) => !done.has(e.hit.documentId))
      .slice(0, count)
      .map((e) => e.handle);
  }
  const picked: string[] = [];
  const followed = entries.filter((e) => e.origin === 'follow').sort((a, b) => b.hit.score - a.hit.score);
  for (const e of followed.slice(0, 1)) picked.push(e.handle);
  // A compound question's part opens the result covering most of the part's words (read under its document's
  // name), then the best score: the part's own passage rather than its document's best-scoring one.
  const compound = isCompound(state);
  for (const search of state.searches) {
    if (picked.length >= count) break;
    const terms = keyTerms(search.query);
    const covered = (e: ResultEntry) => (compound ? termCoverage(terms, namedText(e)) : 0);
    const best = entries
      .filter((e) => e.queries.includes(search.query) && !picked.includes(e.handle) && relevant(e, terms))
      .sort((a, b) => covered(b) - covered(a) || b.hit.score - a.hit.score)[0];
    if (best) picked.push(best.handle);
  }
  const questionTerms = keyTerms(state.question);
  const rest = entries
    .filter((e) => !picked.includes(e.handle) && e.origin === 'search' && relevant(e, questionTerms))
    .sort((a, b) => b.hit.score - a.hit.score);
  for (const e of rest) {
    if (picked.length >= count) break;
    picked.push(e.handle);
  }
  return picked.slice(0, count);
}

/** The table question(s) a question asks: its parts when compound, each with its topic terms. */
function tableQueries(question: string): TableQuery[] {
  const whole = searchableQuestion(question);
  return subQuestions(whole, keyTerms).map((part) => {
    const specific = new Set(specificWords(part).flatMap((w) => analyze(w)));
    const topic = keyTerms(withoutInterrogatives(part));
    return tableQuery(part, topic.length > 0 ? topic : keyTerms(part), (t) => (specific.has(t) ? 3 : 1));
  });
}

/**
 * A table row is found by the name or code it is keyed by, and sits in the one chunk holding it, often not among the
 * best-ranked ones (a sheet's other chunks repeat its title and headers). When no opened chunk answers a table
 * question (a row naming the asked entity, a column header saying the asked attribute) but a searched one does (cells
 * joined by " | ", which the table reader reads), that chunk is the one to open. Planted spans do not count.
 */
export function tableRowToOpen(state: AgentState): string | null {
  const openedIds = new Set(state.opened.map((o) => o.chunk.chunkId));
  const opened = state.opened.map((o) => ({ chunk: { ...o.chunk, text: withoutSpans(o.chunk.text, o.injected) } }));
  const results = [...state.results.values()]
    .filter((e) => !openedIds.has(e.hit.chunkId) && !e.irrelevant && e.origin === 'search')
    .sort((a, b) => b.hit.score - a.hit.score);
  // A superlative is answered by the table that ranks it: open the result holding one that says more of the question
  // as much as any opened table does and ranks another row (or any, when none does), so that rival tables are
  // weighed side by side (extremeTableRow declines when two say the question equally well).
  const question = searchableQuestion(state.question);
  const asked = askedExtreme(question);
  if (asked) {
    const context = extremeContext(state, question, asked);
    const held = extremeCandidates(opened, context);
    const have = Math.max(-1, ...held.map((x) => x.hit.coverage));
    const known = new Set(held.map((x) => `${x.hit.label}\u0000${x.hit.value}`));
    let best: { handle: string; coverage: number } | null = null;
    for (const e of results) {
      const source = { chunk: { ...e.hit, text: withoutSpans(e.hit.text ?? '', e.injected) } };
      for (const x of extremeCandidates([source], context))
        if (
          x.hit.coverage >= have &&
          x.hit.coverage > (best?.coverage ?? -1) &&
          !known.has(`${x.hit.label}\u0000${x.hit.value}`)
        )
          best = { handle: e.handle, coverage: x.hit.coverage };
    }
    if (best) return best.handle;
  }
  for (const q of tableQueries(state.question)) {
    if (answersFromTable(bestTableRow(opened, q), DECLINE_ATTRIBUTE)) continue;
    let best: { handle: string; score: number } | null = null;
    for (const e of results) {
      const source = { chunk: { ...e.hit, text: withoutSpans(e.hit.text ?? '', e.injected) } };
      const hit = bestTableRow([source], q);
      if (hit && answersFromTable(hit, DECLINE_ATTRIBUTE) && hit.score > (best?.score ?? -1))
        best = { handle: e.handle, score: hit.score };
    }
    if (best) return best.handle;
  }
  return null;
}

/** What the table ranking reads of a superlative question (table-extreme.ts). */
function extremeContext(state: AgentState, question: string, asked: AskedExtreme): ExtremeContext {
  return {
    question,
    asked,
    specific: new Set(specificWords(question).flatMap((w) => analyze(w))),
    terms: keyTerms(question),
    weight: () => 1,
    chunkCount: (id) => state.metadata.get(id)?.chunkCount ?? null,
    has: holds,
  };
}

/**
 * A superlative is read over a whole table (table-extreme.ts): when an opened table runs to its chunk's end, only
 * the document's chunk count says whether it goes on in another chunk. The result handle whose document's metadata
 * to read for that, or null.
 */
export function extremeMetadataToRead(state: AgentState): string | null {
  const question = searchableQuestion(state.question);
  const asked = askedExtreme(question);
  if (!asked) return null;
  const opened = state.opened.map((o) => ({
    handle: o.handle,
    chunk: { ...o.chunk, text: withoutSpans(o.chunk.text, o.injected) },
  }));
  const unknown = extremeCandidates(opened, extremeContext(state, question, asked)).find(
    (x) => x.needsCount && !state.metadata.has(x.hit.opened.chunk.documentId),
  );
  return unknown?.hit.opened.handle ?? null;
}

function searchQueue(state: AgentState): string[] {
  const done = new Set(state.searches.map((s) => s.query.toLowerCase()));
  const queue = state.plan.subQueries.filter((q) => !done.has(q.toLowerCase()));
  if (state.searches.length + queue.length < state.constraints.minSearches) {
    const terms = keyTerms(state.question);
    for (const variant of [terms.join(' '), terms.slice(0, 3).join(' '), terms.slice(-3).join(' ')]) {
      if (variant.length > 1 && !done.has(variant.toLowerCase()) && !queue.includes(variant)) queue.push(variant);
      if (state.searches.length + queue.length >= state.constraints.minSearches) break;
    }
  }
  return queue;
}

/** The next action of the deterministic policy. */
export function extractiveNextAction(state: AgentState, tools: Map<ToolName, AgentTool>): DecisionAction {
  const remaining = remainingToolCalls(state);
  const parallel = state.limits.maxParallelCalls;
  if (remaining === 0) return { action: 'final', reason: 'tool budget used' };
  const wanted = opensWanted(state);
  const reserve = Math.max(0, wanted - state.opened.length);

  // An overview ("what is this document about?") reads the documents' openings first.
  const documents = state.plan.documents;
  if (documents?.kind === 'overview' && !state.searches.some((s) => s.tool === 'read_opening'))
    return {
      action: 'tool_call',
      calls: [{ tool: 'read_opening', query: documents.subject }],
      reason: 'read the opening of the documents asked about',
    };

  const queue = searchQueue(state);
  const mustSearch = state.searches.length < state.constraints.minSearches || state.searches.length === 0;
  const searchRoom = mustSearch
    ? Math.max(1, remaining - Math.min(reserve, state.constraints.minOpenCitations))
    : remaining - reserve;
  if (queue.length > 0 && searchRoom > 0) {
    const calls: ToolCall[] = queue
      .slice(0, Math.min(parallel, searchRoom))
      .map((query) => ({ tool: 'search_docs', query }));
    return { action: 'tool_call', calls, reason: 'run the planned searches' };
  }

  const followedUnopened = [...state.results.values()].some(
    (e) => e.origin === 'follow' && !state.opened.some((o) => o.chunk.chunkId === e.hit.chunkId),
  );
  if ((state.opened.length < wanted || followedUnopened) && state.opened.length < state.limits.maxContextCitations) {
    const room = Math.min(
      remaining,
      parallel,
      state.limits.maxContextCitations - state.opened.length,
      Math.max(wanted - state.opened.length, followedUnopened ? 1 : 0),
    );
    const handles = chooseOpens(state, room);
    if (handles.length > 0)
      return {
        action: 'tool_call',
        calls: handles.map((handle) => ({ tool: 'open_citation', handle })),
        reason: 'open the best results',
      };
  }

  const named = state.opened.length < state.limits.maxContextCitations ? partNameOpens(state) : [];
  if (named.length > 0)
    return {
      action: 'tool_call',
      calls: named
        .slice(0, Math.min(remaining, parallel, state.limits.maxContextCitations - state.opened.length))
        .map((handle) => ({ tool: 'open_citation', handle })),
      reason: 'open the passage naming what a part of the question asks about',
    };

  const row = state.opened.length < state.limits.maxContextCitations ? tableRowToOpen(state) : null;
  if (row)
    return {
      action: 'tool_call',
      calls: [{ tool: 'open_citation', handle: row }],
      reason: 'open the table row the question names',
    };

  const extremeDocument = tools.has('get_document_metadata') ? extremeMetadataToRead(state) : null;
  if (extremeDocument)
    return {
      action: 'tool_call',
      calls: [{ tool: 'get_document_metadata', handle: extremeDocument }],
      reason: "read the document's size: a superlative is read over a whole table",
    };

  const follow = tools.get('follow_reference');
  // A question about documents is answered from each document's own passage: no reference is followed.
  if (follow && remaining >= 2 && state.follow.visited.size === 0 && !state.plan.documents) {
    const questionTerms = keyTerms(state.question);
    for (const o of state.opened) {
      const refs = detectReferences(o.chunk.text).filter((r) => r.type !== 'external');
      if (refs.length > 0 && termCoverage(questionTerms, o.chunk.text) > 0) {
        return {
          action: 'tool_call',
          calls: [{ tool: 'follow_reference', handle: o.handle }],
          reason: `follow "${refs[0]?.original ?? ''}"`,
        };
      }
    }
  }
  return { action: 'final', reason: 'evidence gathered' };
}
