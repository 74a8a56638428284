import { analyze } from '@/lib/retrieval/analyzer';
import {
  captionAbove,
  columnHeads,
  emptyColumns,
  isTableLine,
  labelIndex,
  type TableHit,
  type TableLine,
  type TableSource,
  tableRows,
  weighted,
} from './table-answer';

/**
 * Superlative table questions in extractive mode: "Which team has won the most Stanley Cups?", "Which segment had the
 * lowest sales in 2023?". The answer is the row holding the highest (or lowest) number of the column whose header
 * says what the question counts, read over a WHOLE table: a table that may continue in another chunk of its document
 * (it runs to the chunk's edge and the document has more chunks) answers nothing, since a row out of view could hold
 * the extreme. Totals and averages are not rows that compete; a tie, a cell that is no plain number, or two columns
 * saying the asked thing equally leave the question to the ordinary lookup (which declines when nothing answers).
 */

export interface AskedExtreme {
  direction: 'max' | 'min';
  /** Analysed terms the column's header must hold (what is counted or measured). */
  focus: string[];
  /** Whether the column must be a price or cost ("the cheapest", "the most expensive"). */
  price: boolean;
  /**
   * Whether the word was "maximum", "minimum" or "top", which may also name a column ("Max. speed"): then a row the
   * question names may still be looked up when no table ranks.
   */
  limit: boolean;
}

const MAX_WORDS = ['most', 'highest', 'largest', 'greatest', 'biggest', 'maximum', 'max', 'top'];
const MIN_WORDS = ['least', 'lowest', 'smallest', 'fewest', 'minimum', 'min'];
const LIMIT_WORDS = ['maximum', 'max', 'minimum', 'min', 'top'];
/** Words that end the counted noun phrase ("the most goals in 2022", "the highest sales of any region"). */
const STOP =
  /^(?:in|of|for|on|at|among|across|by|during|with|from|per|to|than|and|or|is|was|are|were|has|have|had|does|did|do|this|that|the|a|an|ever|overall|so|far|as|since|between|within|according)$/i;
/** Words that only name a number, not what it counts ("the highest number", "the largest amount of"). */
const GENERIC = new Set(analyze('number amount value total count figure level quantity'));

/** Analysed words a ranked row answers by its rank: the superlatives and the words only naming a number. */
const RANK_WORDS = new Set([
  ...analyze(`${MAX_WORDS.join(' ')} ${MIN_WORDS.join(' ')} cheapest expensive priciest costly dearest`),
  ...GENERIC,
]);

const PRICE_MIN = /\b(?:cheapest|least\s+expensive|lowest[-\s]priced|least\s+costly)\b/i;
const PRICE_MAX = /\b(?:most\s+expensive|priciest|highest[-\s]priced|most\s+costly|dearest)\b/i;
/** A header naming a price or cost (or a currency). */
const PRICE_HEADER = /\b(?:price|prices|cost|costs|fee|fees|charge|rate|eur|usd|gbp|chf|jpy)\b|[$€£¥]/i;

/** The extreme a question asks about, or null when it asks none (or names nothing a column could count). */
export function askedExtreme(question: string): AskedExtreme | null {
  if (!/\b(?:which|what|who|whose)\b/i.test(question)) return null;
  if (PRICE_MIN.test(question)) return { direction: 'min', focus: [], price: true, limit: false };
  if (PRICE_MAX.test(question)) return { direction: 'max', focus: [], price: true, limit: false };
  // "the highest number of goals": the counted thing follows the word naming a number.
  const counted = question.replace(/\b(?:number|amount|count|quantity|total)\s+of\s+/gi, '');
  const words = counted.match(/[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/gu) ?? [];
  for (const [i, raw] of words.entries()) {
    const w = raw.toLowerCase();
    const direction = MAX_WORDS.includes(w) ? 'max' : MIN_WORDS.includes(w) ? 'min' : null;
    if (!direction) continue;
    // "at least", "at most": a bound, not a superlative.
    if ((w === 'least' || w === 'most') && words[i - 1]?.toLowerCase() === 'at') continue;
    // "the maximum speed of the drone", "its top speed": a word of the attribute a row's column may be named by; it
    // asks a ranking only of a question asking which row ("which drone has the maximum speed").
    const limit = LIMIT_WORDS.includes(w);
    if (limit && !/\b(?:which|who|whose)\b/i.test(question)) continue;
    const phrase: string[] = [];
    for (const next of words.slice(i + 1)) {
      if (STOP.test(next) || phrase.length >= 4) break;
      phrase.push(next);
    }
    // "the most common", "the largest city": an adjective or a noun of the answer, not a counted column.
    const focus = analyze(phrase.join(' ')).filter((t) => !GENERIC.has(t));
    if (focus.length === 0) return null;
    return { direction, focus, price: false, limit };
  }
  return null;
}

/** A cell read as one plain number ("12,553", "(81)", "−4", "45%", "$1,200.50"); null otherwise. */
export function cellNumber(cell: string): number | null {
  let t = cell.trim().replace(/[\s\u00a0\u202f]/g, '');
  let negative = false;
  if (/^\(.+\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1);
  }
  t = t.replace(/^[−–—]/, '-');
  t = t.replace(/^([-+]?)[$€£¥]/, '$1').replace(/[$€£¥%]$/, '');
  if (/^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^[-+]?\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?$/.test(t)) t = t.replace(/\./g, '').replace(',', '.');
  else if (/^[-+]?\d+,\d+$/.test(t)) t = t.replace(',', '.');
  if (!/^[-+]?\d+(?:\.\d+)?$/.test(t)) return null;
  const value = Number(t);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/** Cells that hold no value ("", "-", "n/a"): a row without one does not compete. */
const EMPTY_CELL = /^(?:|[-–—]|n\/?a|—)$/i;

/** Row labels that sum or average the others ("Total", "Average", "All regions"): they do not compete. */
const SUMMARY = new Set(analyze('total totals subtotal sum overall average mean median gesamt insgesamt summe'));
const isSummary = (label: string) => /^\s*(?:all|grand)\b/i.test(label) || analyze(label).some((t) => SUMMARY.has(t));

/**
 * Row labels gathering what no member holds, the residual lines of a breakdown ("Other businesses", "Unallocated
 * items", "Eliminations"): they add up with the members but are none of what the table ranks.
 */
const RESIDUAL = new Set(
  analyze('unallocated eliminations elimination adjustments reconciliation unassigned unknown miscellaneous'),
);
const isResidual = (label: string) =>
  /^\s*(?:others?|rest|remaining)\b/i.test(label) || analyze(label).some((t) => RESIDUAL.has(t));

const isYear = (t: string) => /^(?:1[5-9]|2[0-2])\d\d$/.test(t);

/**
 * Whether a table whose lines run from `first` to `last` is whole by its place in its chunk: text after it ends it
 * (rows are packed contiguously), and so does the document's end (`chunkCount`: null when not known); text above it
 * starts it, except in a sheet, whose later chunks repeat the sheet's caption and header lines above the rows they
 * continue, so there only the document's first chunk proves the start.
 */
export function tableIsWhole(
  chunk: { text: string; index: number; sheet: string | null },
  first: TableLine,
  last: TableLine,
  chunkCount: number | null,
): boolean {
  const prose = (s: string) =>
    s
      .split('\n')
      .map((l) => l.trim())
      .some((l) => l.length > 0 && !isTableLine(l));
  const top = chunk.index === 0 || (chunk.sheet === null && prose(chunk.text.slice(0, first.start)));
  const bottom = prose(chunk.text.slice(last.end)) || (chunkCount !== null && chunk.index === chunkCount - 1);
  return top && bottom;
}

/** A total row's words ("Total", "Grand total", "Totals"). */
const TOTAL_LABEL = /^\s*(?:grand\s+)?totals?\b/i;

/**
 * Whether the rows' values add up to the table's own total row (to its rounding): then the rows in view are all the
 * rows it has, wherever the table stands in its chunk.
 */
export function addsUpToTotal(values: readonly number[], total: number | null): boolean {
  if (total === null || values.length < 2) return false;
  const sum = values.reduce((a, b) => a + b, 0);
  // Each value may be rounded to its last digit: half a unit each.
  const slack = Math.max(1e-9, 0.5 * values.length * (Number.isInteger(total) ? 1 : 0.1));
  return Math.abs(sum - total) <= slack;
}

export interface ExtremeContext {
  question: string;
  asked: AskedExtreme;
  /** Analysed terms of the question that name something specific (a name or code): a row they name is a lookup. */
  specific: ReadonlySet<string>;
  /** The question's topic terms and their weights, for the hit's coverage. */
  terms: readonly string[];
  weight: (term: string) => number;
  /** The number of chunks of a document, when known (its metadata was read). */
  chunkCount: (documentId: string) => number | null;
  has: (have: ReadonlySet<string>, term: string) => boolean;
}

interface Candidate<T extends TableSource> {
  hit: TableHit<T>;
  /** The table may be whole, but only the document's chunk count can say (it runs to its chunk's end). */
  needsCount: boolean;
}

/** The extreme rows of the opened tables: at most one per table; `needsCount` marks the unproven ones. */
export function extremeCandidates<T extends TableSource & { chunk: { documentId: string; index: number } }>(
  opened: readonly T[],
  c: ExtremeContext,
): Candidate<T>[] {
  const out: Candidate<T>[] = [];
  const years = analyze(c.question).filter(isYear);
  for (const o of opened) {
    const rows = tableRows(o.chunk.text);
    // The table's caption: the chunk's sheet, title and file name and its lines that are not table rows.
    const captionLines = [o.chunk.sheet ?? '', o.chunk.title ?? '', o.chunk.filename];
    for (const line of o.chunk.text.split('\n')) if (!isTableLine(line)) captionLines.push(line);
    const captionText = captionLines.join('\n');
    for (const headers of new Set(rows.map((r) => r.headers))) {
      const table = rows.filter((r) => r.headers === headers).map((r) => r.row);
      const first = headers[0] ?? table[0];
      const last = table.at(-1);
      if (!first || !last || table.length < 2 || headers.length === 0) continue;
      // A question naming one of the rows asks a lookup ("the maximum phosphorus content of SNB22-3").
      if (table.some((r) => analyze(r.cells.join(' ')).some((t) => c.specific.has(t)))) continue;
      const width = Math.max(...table.map((r) => r.cells.length), ...headers.map((h) => h.cells.length));
      const heads = columnHeads(headers, width, emptyColumns([...table, ...headers], width));
      const caption = new Set(analyze(`${captionText}\n${captionAbove(o.chunk.text, first)}`));
      const labelAt = labelIndex(last.cells);
      const columns: { index: number; yearSaid: boolean; extra: number }[] = [];
      for (let i = 0; i < width; i++) {
        if (i === labelAt) continue;
        const own = heads[i]?.own ?? '';
        const head = new Set(analyze(`${own} ${heads[i]?.group ?? ''}`));
        const says = c.asked.price ? PRICE_HEADER.test(own) : c.asked.focus.every((t) => c.has(head, t));
        if (!says) continue;
        const headYears = [...head].filter(isYear);
        // A column under another year than the question's answers nothing.
        if (years.length > 0 && headYears.length > 0 && !headYears.some((y) => years.includes(y))) continue;
        // What the header says beyond the asked thing ("Underlying" of "Underlying Trading operating profit").
        const extra = analyze(own).filter((t) => !c.asked.focus.some((f) => c.has(new Set([t]), f))).length;
        columns.push({ index: i, yearSaid: headYears.some((y) => years.includes(y)), extra });
      }
      // The question's year must be the column's or the table's (its caption).
      const usable =
        years.length === 0 ? columns : columns.filter((col) => col.yearSaid || years.some((y) => caption.has(y)));
      // Of headers saying the asked thing, the one saying least else; two alike leave the question open.
      const fewest = Math.min(...usable.map((col) => col.extra));
      const closest = usable.filter((col) => col.extra === fewest);
      if (closest.length !== 1) continue;
      const column = closest[0]?.index ?? -1;
      const values: { row: TableLine; value: number }[] = [];
      /** Every value the table's total adds up (members and residual lines). */
      const parts: number[] = [];
      let unreadable = false;
      let total: number | null = null;
      for (const row of table) {
        const label = row.cells[labelIndex(row.cells)] ?? '';
        if (TOTAL_LABEL.test(label)) total = cellNumber(row.cells[column] ?? '');
        if (!/\p{L}/u.test(label) || isSummary(label)) continue;
        const cell = row.cells[column] ?? '';
        if (EMPTY_CELL.test(cell.trim())) continue;
        const value = cellNumber(cell);
        if (value === null) {
          unreadable = true;
          break;
        }
        parts.push(value);
        if (!isResidual(label)) values.push({ row, value });
      }
      // "Which zone …": when some rows' labels name the asked kind, only those compete ("Zone NA", "Zone EUR", not
      // "Nespresso" of the same table); when none does ("which team" over team names), all do.
      const kind = analyze(c.question).filter((t) => !RANK_WORDS.has(t) && !isYear(t) && !c.asked.focus.includes(t));
      // The kind is the label's first or last word ("Zone NA", "North Region"), in two rows at least: a word inside a
      // label ("Milk products and Ice cream" for "which product category") names no kind of row.
      const ofKind = values.filter((v) => {
        const words = analyze(v.row.cells[labelIndex(v.row.cells)] ?? '');
        return kind.some((t) => t === words[0] || t === words.at(-1));
      });
      if (ofKind.length >= 2 && ofKind.length < values.length) values.splice(0, values.length, ...ofKind);
      if (unreadable || values.length < 2) continue;
      const best = values.reduce((a, b) =>
        (c.asked.direction === 'max' ? b.value > a.value : b.value < a.value) ? b : a,
      );
      if (values.filter((v) => v.value === best.value).length > 1) continue;
      const count = c.chunkCount(o.chunk.documentId);
      const chunk = { text: o.chunk.text, index: o.chunk.index, sheet: o.chunk.sheet };
      const whole = addsUpToTotal(parts, total) || tableIsWhole(chunk, first, last, count);
      // Whole if this chunk is the document's last: its metadata can tell.
      const provable = !whole && count === null && tableIsWhole(chunk, first, last, o.chunk.index + 1);
      if (!whole && !provable) continue;
      const head = heads[column];
      const all = new Set([
        ...analyze(best.row.cells.join(' ')),
        ...caption,
        ...headers.flatMap((h) => analyze(h.text)),
      ]);
      out.push({
        needsCount: !whole,
        hit: {
          opened: o,
          row: best.row,
          headers,
          label: best.row.cells[labelIndex(best.row.cells)] ?? '',
          column: head ? [head.group, head.own].filter(Boolean).join(' ') || null : null,
          value: best.row.cells[column] ?? null,
          // The superlative and the words only naming a number are what the row's rank answers.
          coverage: weighted(c.terms, (t) => RANK_WORDS.has(t) || c.has(all, t), c.weight),
          labelCoverage: 0,
          attributeCoverage: 1,
          score: 0,
          extreme: c.asked.direction,
        },
      });
    }
  }
  return out;
}

/**
 * The one extreme row the opened tables give, or null: none, or two tables disagreeing (each could be what the
 * question means), or the only one not proven whole.
 */
export function extremeTableRow<T extends TableSource & { chunk: { documentId: string; index: number } }>(
  opened: readonly T[],
  c: ExtremeContext,
): TableHit<T> | null {
  // Of tables giving different rows, the one whose row, headers and caption say most of the question ("which
  // segment …" over the segments' table, not the products'); equally good ones leave the question open.
  const found = extremeCandidates(opened, c)
    .filter((x) => !x.needsCount)
    .sort((a, b) => b.hit.coverage - a.hit.coverage);
  const [best] = found;
  if (!best) return null;
  const rival = found.find((x) => x.hit.label !== best.hit.label || x.hit.value !== best.hit.value);
  if (rival && rival.hit.coverage >= best.hit.coverage - 1e-9) return null;
  return best.hit;
}
