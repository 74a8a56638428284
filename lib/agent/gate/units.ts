import { findQuotes, type QuoteMatch } from './quotes';

/**
 * Claim-bearing units of an answer, with the citation markers that belong to each.
 *
 * Units: each sentence of a paragraph, each sentence of a list item, each table cell, each code block (fenced with
 * ``` or ~~~, or indented by four spaces after a blank line), each block quote (> …) and each heading.
 * Markers: a marker belongs to the sentence it stands in; markers that open a sentence ("… text. [1] Next") belong
 * to the sentence before, so "text [1]." and "text. [1]" cite the same unit. A table cell is cited by markers in
 * the cell or anywhere in its row (a body row is one claim: see `Unit.row`); a code block by the unit that introduces it and by markers right after it; list
 * items and table rows without markers of their own inherit those of an introducing line ending in ":".
 * A quote is cited by the markers right after it (punctuation may sit between), else by its unit's markers.
 */

export type UnitKind = 'sentence' | 'item' | 'cell' | 'code' | 'heading' | 'blockquote';

export interface UnitQuote extends QuoteMatch {
  cites: number[];
}

export interface Unit {
  kind: UnitKind;
  /** The unit's text as written (markers included); for code and block quotes, the content only. */
  text: string;
  start: number;
  end: number;
  cites: number[];
  quotes: UnitQuote[];
  /** For code blocks and block quotes: the whole block (fence lines, > marks). */
  block?: { start: number; end: number };
  /**
   * For the cells of a table's body row: the whole row's text (cells joined by spaces). A row states its claim
   * across its cells ("| Premium | unlimited |"), so an uncited row is judged whole, not cell by cell.
   */
  row?: string;
}

const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const LEADING_MARKERS = /^(?:\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\][.,;:!?]?)+/;
const QUOTE_MARKERS = /^[\s.,;:!?)]*((?:\[\d{1,3}(?:\s*,\s*\d{1,3})*\]\s*)+)/;

/** The numbers of the [n] markers in `text`. */
export function markerNumbers(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(MARKER)) {
    for (const part of (m[1] ?? '').split(',')) out.push(Number.parseInt(part.trim(), 10));
  }
  return out;
}

/** `text` with every [n] marker blanked out (offsets kept). */
export function withoutMarkers(text: string): string {
  return text.replace(MARKER, (m) => ' '.repeat(m.length));
}

/** A markdown link's destination and title, `(url "title")` after its text: the reader sees the text only. */
const LINK_TARGET = /(?<=\])\(\s*(?:<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;

/** `text` with every link destination blanked (offsets kept): its digits are an address, not a number stated. */
export function withoutLinkTargets(text: string): string {
  return text.replace(LINK_TARGET, (m) => ' '.repeat(m.length));
}

const uniq = (xs: number[]) => [...new Set(xs)];

interface Line {
  text: string;
  start: number;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    out.push({ text: line, start });
    start += line.length + 1;
  }
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(?:#{1,6}(?:\s|$)|(\*\*|__)[^*_\n]+\1\s*:?\s*$)/;
const ITEM = /^(\s*)(?:[-*+\u2022]|\d{1,3}[.)])\s+/;
const BLOCKQUOTE = /^ {0,3}>/;
const INDENTED = /^(?: {4,}|\t)\S/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const blank = (l: Line | undefined) => l !== undefined && l.text.trim() === '';

/** Whether a table (a row with pipes, then a separator row) starts at line i. */
function tableStarts(lines: readonly Line[], i: number): boolean {
  const line = lines[i]?.text ?? '';
  return line.includes('|') && !TABLE_SEPARATOR.test(line) && TABLE_SEPARATOR.test(lines[i + 1]?.text ?? '');
}

/**
 * A sentence end: the stop, then any closing marks: quotation marks of every style (the closing “ of „…“, 」, ＂,
 * a closing </q>), brackets.
 */
const SENTENCE_CLOSE =
  /[.!?]+(?:["'\p{Pi}\p{Pf}\p{Pe}\uFF02\uFF07\u2033\u2032\u02BA\u02B9\u05F4]|<\/(?:q|blockquote)\s*>)*(?=\s|$)/giu;

/** The sentence ends of `text` outside the given protected spans. */
function sentenceEnds(text: string, protectedSpans: readonly QuoteMatch[]): number[] {
  const ends: number[] = [];
  for (const m of text.matchAll(SENTENCE_CLOSE)) {
    const at = m.index + m[0].length;
    // Inside a quote only where the quote itself ends ("… ends here." [1] Next sentence).
    if (protectedSpans.some((q) => m.index >= q.start && at < q.end)) continue;
    const before = text.slice(Math.max(0, m.index - 6), m.index + 1);
    if (/(?:(?<![\p{L}])\p{L}|\be\.g|\bi\.e|\bvs|\bNo|\bcf)\.$/u.test(before)) continue;
    const next = /\S/.exec(text.slice(at));
    if (next && /\p{Ll}/u.test(next[0])) continue;
    ends.push(at);
  }
  return ends;
}

interface Builder {
  units: Unit[];
  /** Units of the current block (for leading markers). */
  blockStart: number;
}

function pushSentences(b: Builder, kind: UnitKind, text: string, offset: number, inherit: number[]): void {
  const quotes = findQuotes(text);
  const ends = [...sentenceEnds(text, quotes), text.length];
  let from = 0;
  const created: Unit[] = [];
  for (const end of ends) {
    let segStart = from;
    let segEnd = end;
    from = end;
    const lead = LEADING_MARKERS.exec(text.slice(segStart, segEnd));
    if (lead) {
      const previous = created.at(-1) ?? b.units.at(-1);
      const moveBack = previous && (created.length > 0 || previous.kind === 'code' || previous.kind === 'blockquote');
      if (previous && moveBack) {
        previous.cites = uniq([...previous.cites, ...markerNumbers(lead[0])]);
        segStart += lead[0].length;
      }
    }
    while (segStart < segEnd && /\s/.test(text.charAt(segStart))) segStart++;
    while (segEnd > segStart && /\s/.test(text.charAt(segEnd - 1))) segEnd--;
    if (segEnd <= segStart) continue;
    const inner = quotes.filter((q) => q.start >= segStart && q.end <= segEnd);
    const outside = inner.reduce(
      (acc, q) => acc.slice(0, q.start - segStart) + ' '.repeat(q.end - q.start) + acc.slice(q.end - segStart),
      text.slice(segStart, segEnd),
    );
    const unit: Unit = {
      kind,
      text: text.slice(segStart, segEnd),
      start: offset + segStart,
      end: offset + segEnd,
      cites: markerNumbers(outside),
      quotes: inner.map((q) => ({
        ...q,
        start: offset + q.start,
        end: offset + q.end,
        cites: markerNumbers(QUOTE_MARKERS.exec(text.slice(q.end))?.[1] ?? ''),
      })),
    };
    created.push(unit);
  }
  const own = created.some((u) => u.cites.length > 0);
  for (const u of created) {
    if (!own && inherit.length > 0) u.cites = [...inherit];
    for (const q of u.quotes) if (q.cites.length === 0) q.cites = [...u.cites];
    b.units.push(u);
  }
}

/** Markers of an introducing unit ("… [1]:") that list items, tables and code blocks after it inherit. */
function introCites(b: Builder, requireColon: boolean): number[] {
  const last = b.units.at(-1);
  if (!last || last.kind === 'heading' || last.kind === 'code') return [];
  if (requireColon && !/:\s*(?:\[[\d,\s]+\]\s*)*$/.test(last.text) && !/\]\s*:\s*$/.test(last.text)) return [];
  return last.cites;
}

/** The markers a list's items inherit, per answer being split. */
const listIntros = new WeakMap<Builder, number[]>();

/** Splits an answer into its claim-bearing units. */
export function claimUnits(answer: string): Unit[] {
  const lines = linesOf(answer);
  const b: Builder = { units: [], blockStart: 0 };
  let i = 0;
  let lastBlock: 'none' | 'item' | 'other' = 'none';
  while (i < lines.length) {
    const line = lines[i] as Line;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      const mark = fence[1] as string;
      const close = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !close.test((lines[j] as Line).text)) j++;
      const body = lines.slice(i + 1, j);
      const closing = lines[j];
      pushCode(b, answer, body, {
        start: line.start,
        end: closing ? closing.start + closing.text.length : answer.length,
      });
      i = j + 1;
      lastBlock = 'other';
      continue;
    }
    const previousBlank = i === 0 || blank(lines[i - 1]);
    if (INDENTED.test(line.text) && previousBlank && lastBlock !== 'item') {
      let j = i;
      while (j < lines.length && (INDENTED.test((lines[j] as Line).text) || blank(lines[j]))) j++;
      while (j > i && blank(lines[j - 1])) j--;
      const lastLine = lines[j - 1] as Line;
      pushCode(b, answer, lines.slice(i, j), { start: line.start, end: lastLine.start + lastLine.text.length });
      i = j;
      lastBlock = 'other';
      continue;
    }
    if (HEADING.test(line.text)) {
      const text = line.text.trim();
      b.units.push({
        kind: 'heading',
        text,
        start: line.start + line.text.indexOf(text),
        end: line.start + line.text.indexOf(text) + text.length,
        cites: markerNumbers(text),
        quotes: [],
      });
      i++;
      lastBlock = 'other';
      continue;
    }
    if (BLOCKQUOTE.test(line.text)) {
      let j = i;
      while (j < lines.length && BLOCKQUOTE.test((lines[j] as Line).text)) j++;
      const block = lines.slice(i, j);
      const content = block.map((l) => l.text.replace(/^ {0,3}>\s?/, '')).join('\n');
      const own = markerNumbers(content);
      const start = (block[0] as Line).start;
      const end = start + block.map((l) => l.text).join('\n').length;
      b.units.push({
        kind: 'blockquote',
        text: content,
        start,
        end,
        cites: own.length > 0 ? own : introCites(b, false),
        quotes: [],
        block: { start, end },
      });
      i = j;
      lastBlock = 'other';
      continue;
    }
    if (tableStarts(lines, i)) {
      const inherit = introCites(b, true);
      let j = i;
      while (j < lines.length && (lines[j] as Line).text.includes('|')) j++;
      for (const [k, row] of lines.slice(i, j).entries()) {
        if (TABLE_SEPARATOR.test(row.text)) continue;
        pushRow(b, row, inherit, k === 0);
      }
      i = j;
      lastBlock = 'other';
      continue;
    }
    const item = ITEM.exec(line.text);
    let j = i + 1;
    while (
      j < lines.length &&
      !blank(lines[j]) &&
      !ITEM.test((lines[j] as Line).text) &&
      !FENCE.test((lines[j] as Line).text) &&
      !HEADING.test((lines[j] as Line).text) &&
      !BLOCKQUOTE.test((lines[j] as Line).text) &&
      !tableStarts(lines, j)
    )
      j++;
    const startAt = line.start + (item ? item[0].length : 0);
    const last = lines[j - 1] as Line;
    const text = answer.slice(startAt, last.start + last.text.length);
    if (item) {
      if (lastBlock !== 'item') listIntros.set(b, introCites(b, true));
      pushSentences(b, 'item', text, startAt, listIntros.get(b) ?? []);
    } else pushSentences(b, 'sentence', text, startAt, []);
    lastBlock = item ? 'item' : 'other';
    i = j;
  }
  return b.units;
}

function pushCode(b: Builder, answer: string, body: Line[], block: { start: number; end: number }): void {
  const first = body[0];
  const last = body.at(-1);
  const start = first ? first.start : 0;
  const end = last ? last.start + last.text.length : start;
  b.units.push({
    kind: 'code',
    text: first ? answer.slice(start, end) : '',
    start,
    end,
    cites: introCites(b, false),
    quotes: [],
    block,
  });
}

function pushRow(b: Builder, row: Line, inherit: number[], header: boolean): void {
  const rowCites = markerNumbers(row.text);
  const cells: { text: string; start: number }[] = [];
  let from = 0;
  const parts = row.text.split('|');
  for (const part of parts) {
    cells.push({ text: part, start: row.start + from });
    from += part.length + 1;
  }
  const created: Unit[] = [];
  const temp: Builder = { units: created, blockStart: 0 };
  for (const cell of cells) {
    if (cell.text.trim() === '') continue;
    pushSentences(temp, 'cell', cell.text, cell.start, []);
  }
  const whole = withoutMarkers(row.text).replaceAll('|', ' ');
  for (const u of created) {
    u.cites = uniq([...u.cites, ...rowCites, ...(rowCites.length === 0 ? inherit : [])]);
    if (!header) u.row = whole;
    for (const q of u.quotes) if (q.cites.length === 0) q.cites = [...u.cites];
    b.units.push(u);
  }
}
