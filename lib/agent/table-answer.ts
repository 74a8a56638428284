import { analyze } from '@/lib/retrieval/analyzer';
import { type AnswerType, holdsAnswerType } from './answer-type';
import type { OpenedChunk } from './state';

/**
 * Table lookups for extractive mode. Parsed documents render a table as lines of cells joined by " | " (spreadsheets,
 * CSV/TSV, Markdown and HTML tables alike); the header lines are the table lines above the first data row. A
 * question is answered from the cell where the asked row meets the asked column: the row is found by its key (the
 * label in the first cell, or a name or code the question gives in another cell: "which team is located in PHI"),
 * the column by its header, which must say what the question asks beyond the row's key. A header row alone is never
 * an answer, and a row whose columns do not say the asked attribute answers nothing.
 */

export interface TableLine {
  text: string;
  start: number;
  end: number;
  cells: string[];
}

/** Where a table is read from: an opened chunk, or a search result not opened yet. */
export interface TableSource {
  chunk: { text: string; sheet: string | null; title: string | null; filename: string };
}

export interface TableHit<T extends TableSource = OpenedChunk> {
  opened: T;
  row: TableLine;
  /** The header lines of the row's table (nearest last). */
  headers: TableLine[];
  /** The row's key cell (its label, or the cell naming what the question gives). */
  label: string;
  /** The matched column's header (with its group label) and the row's value in it, when a column matched. */
  column: string | null;
  value: string | null;
  /** Weighted share of the question's terms the key, the column header and the table's context cover. */
  coverage: number;
  /** Weighted share covered by the key alone (the asked entity). */
  labelCoverage: number;
  /**
   * Share of the asked attribute (the question's words the key does not name, numbers and words that only name the
   * answer's type aside) that the column's header, its group label and the table's caption hold (0 when no column).
   */
  attributeCoverage: number;
  /** Ranking score: key match first, then column and context. */
  score: number;
  /** Set when the row was picked as the column's highest or lowest value of a whole table (table-extreme.ts). */
  extreme?: 'max' | 'min';
}

export interface TableQuery {
  /** The question's text (for the months it names). */
  question?: string;
  /** The question's analysed topic terms. */
  terms: readonly string[];
  weight: (term: string) => number;
  /** Terms naming something specific (a name, code or number): they may find a row by any of its cells. */
  specific?: ReadonlySet<string>;
  /** Terms that only name the answer's type ("year", "number"): never what a column must say. */
  typeNouns?: ReadonlySet<string>;
  /** Whether a cell holds a value of the asked type (a year question is not answered by a count). */
  fits?: (value: string) => boolean;
  /** Whether a column header names a unit of the dimension the question asks a number of (measure.ts). */
  unitHeader?: (header: string) => boolean;
  /** The question's terms that ask that dimension ("cost"): what such a header says for the question. */
  unitWords?: ReadonlySet<string>;
  /**
   * The noun the question asks for when it names one ("how many titles …", "which page …"): what the column must say;
   * the question's other words may be a relation no table spells out ("… have the Otters won").
   */
  focus?: readonly string[];
  /** Whether analysed terms hold a term (word families, see `holds` in extractive-select). */
  has?: (have: ReadonlySet<string>, term: string) => boolean;
}

const NUMBER = String.raw`[-−–—+]?\(?\d[\d.,\s]*\)?`;
/** A currency symbol before an amount ("$2,899", "€ 40"). */
const CURRENCY = String.raw`[$€£¥₹₩₽₺₪฿]\s*`;
/**
 * A unit after a number: one short token of letters and unit signs ("1.2 kg", "38 min", "68 km/h", "20 MP", "5,000
 * mAh", "230 °C", "2.1 mg/L"), at most five characters, so that a word ("12 months", "2 sprigs fresh rosemary") keeps
 * the cell a text cell. A spec sheet or a price list writes its values with their units.
 */
const UNIT = String.raw`[\p{L}°µ][\p{L}°µ/²³]{0,4}`;
/**
 * A value cell: a number, a range ("0.75 - 1.2", "293-375", "-10 to 40 °C"), a bound ("max 0.025", "≤ 5"), a percentage, a dash; an
 * amount may carry its currency symbol and a number its unit.
 */
const VALUE = new RegExp(
  String.raw`^(?:[<>≤≥~≈]\s*|\p{Ll}{1,3}\.?\s+)?(?:${CURRENCY})?(${NUMBER})(?:\s*(?:[-−–—]|to)\s*(?:${CURRENCY})?(${NUMBER}))?\s*(?:%|${UNIT})?$|^[—–-]$`,
  'u',
);

/** Digits before the decimal point. */
const integerDigits = (n: string) => (n.replace(/[^\d.]/g, '').split('.')[0] ?? '').length;

export function isTableLine(line: string): boolean {
  return line.includes(' | ') || /^\s*\|.*\|\s*$/.test(line);
}

function cellsOf(line: string): string[] {
  const t = line.trim();
  // A Markdown row is fenced by pipes on both sides; a spreadsheet row starting with "| " has an empty first cell.
  const body = t.startsWith('|') && t.endsWith('|') ? t.slice(1, -1) : t;
  return body.split('|').map((c) => c.trim());
}

/** A value cell (number, range, bound, dash). */
export function isValueCell(cell: string): boolean {
  const m = cell.length > 0 ? VALUE.exec(cell) : null;
  if (!m) return false;
  // A range joins two numbers of one magnitude ("293-375"); "20-8143439" is an identifier.
  const [from, to] = [m[1], m[2]];
  return !from || !to || Math.abs(integerDigits(from) - integerDigits(to)) <= 1;
}

/** A data row: a label with letters and at least one value cell holding a digit. */
export function isDataRow(cells: readonly string[]): boolean {
  const label = cells[0] ?? '';
  if (!/\p{L}/u.test(label) || /^-{3,}$/.test(label)) return false;
  return cells.slice(1).some((c) => isValueCell(c) && /\d/.test(c));
}

/**
 * Header lines kept above a table's first data row: a column header under one or two spanning lines, or the text rows
 * of a transposed table (countries across, "Continent", "Capital", "Currency" down) above its first numeric row.
 */
const MAX_HEADER_LINES = 5;

/** The most words a table's caption line may have (a title, not a sentence of prose). */
const CAPTION_WORDS = 12;

/**
 * The caption of the table whose first line (its top header, or the row itself) is `first`: the nearest non-blank
 * line above it when that line is short and no table line ("Hardness of grade SNB22-3" above "- | Brinell HBW / HB |
 * …"); empty when the table has none.
 */
export function captionAbove(text: string, first: TableLine): string {
  const above = text
    .slice(0, first.start)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .at(-1);
  if (!above || isTableLine(above) || above.split(/\s+/).length > CAPTION_WORDS) return '';
  return above;
}

/** The tables of a chunk: data rows with the header lines above them. */
export function tableRows(text: string): { row: TableLine; headers: TableLine[] }[] {
  // The table lines (null: a line that ends a table), separator lines dropped.
  const lines: (TableLine | null)[] = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    const start = offset + (raw.length - raw.trimStart().length);
    offset += raw.length + 1;
    const trimmed = raw.trim();
    // A Markdown separator line ("---|:---:") sits between a header and its rows.
    if (/^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)+\|?$/.test(trimmed)) continue;
    // A line that is not a table line (a caption, a blank line) ends the table above it.
    if (!isTableLine(trimmed)) {
      lines.push(null);
      continue;
    }
    const cells = cellsOf(trimmed);
    if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue;
    lines.push({ text: trimmed, start, end: start + trimmed.length, cells });
  }
  const out: { row: TableLine; headers: TableLine[] }[] = [];
  let headers: TableLine[] = [];
  let inData = false;
  for (const [i, line] of lines.entries()) {
    if (!line) {
      headers = [];
      inData = false;
      continue;
    }
    const next = lines[i + 1];
    // A table's first line followed by a header line is a header too ("Region | 2021 | 2022" over "| Sales | Sales").
    const heads = i === 0 || !lines[i - 1] ? next && !isDataRow(next.cells) : false;
    if (isDataRow(line.cells) && !heads) {
      inData = true;
      out.push({ row: line, headers });
    } else if (inData) {
      headers = [line];
      inData = false;
    } else headers = [...headers, line].slice(-MAX_HEADER_LINES);
  }
  return out;
}

/**
 * The text rows of a transposed table (countries across, "Capital | Jakarta | Berlin" down): the header lines under
 * its first line that carry a label and text cells, each read as a row under that first line (its column header).
 */
export function transposedRows(rows: readonly { row: TableLine; headers: TableLine[] }[]) {
  const out: { row: TableLine; headers: TableLine[] }[] = [];
  for (const headers of new Set(rows.map((r) => r.headers))) {
    const [top, ...below] = headers;
    if (!top || below.length === 0) continue;
    const across = [top];
    for (const line of below)
      if (/\p{L}/u.test(line.cells[0] ?? '') && line.cells.slice(1).some((c) => /\p{L}/u.test(c)))
        out.push({ row: line, headers: across });
  }
  return out;
}

/**
 * A spanning header line ("In millions of CHF | | | 2023 | | | 2022" above the column header line): at most half as
 * many labels as columns, each standing for a group of columns. One label titles every column; when the empty
 * separator columns cut the table into groups holding one label each, a label stands for its group; otherwise a
 * label stands for its own column and those to its right up to the next label (a merged cell's value is stored in
 * its first cell), and the columns left of the first label have none.
 */
function groupLabels(line: TableLine, width: number, separators: ReadonlySet<number>): string[] | null {
  const labelled = line.cells.map((c, i) => (i > 0 && c.length > 0 ? i : -1)).filter((i) => i > 0);
  if (labelled.length === 0 || labelled.length * 2 > width - 1) return null;
  const cuts = [0, ...[...separators].sort((a, b) => a - b), width];
  const groups = cuts.slice(1).map((end, g) => ({ from: (cuts[g] ?? 0) + 1, to: end - 1 }));
  const inGroup = (i: number) => groups.find((g) => i >= g.from && i <= g.to);
  const oneEach = groups
    .filter((g) => g.to >= g.from)
    .every((g) => labelled.filter((j) => j >= g.from && j <= g.to).length <= 1);
  const out: string[] = [''];
  for (let i = 1; i < width; i++) {
    let label: number | undefined;
    if (labelled.length === 1) label = labelled[0];
    else if (oneEach && labelled.length > 0) {
      const g = inGroup(i);
      label = g ? labelled.find((j) => j >= g.from && j <= g.to) : undefined;
    } else label = labelled.filter((j) => j <= i).at(-1);
    out.push(label === undefined ? '' : (line.cells[label] ?? ''));
  }
  return out;
}

/** Per column: its own header words and its group label (from the spanning lines). */
export function columnHeads(
  headers: readonly TableLine[],
  width: number,
  separators: ReadonlySet<number>,
): { own: string; group: string }[] {
  const out = Array.from({ length: width }, () => ({ own: [] as string[], group: [] as string[] }));
  for (const [n, h] of headers.entries()) {
    // Only a line above the column header line can span columns.
    const groups = n < headers.length - 1 ? groupLabels(h, width, separators) : null;
    for (let i = 0; i < width; i++) {
      const cell = groups ? (groups[i] ?? '') : (h.cells[i] ?? '');
      if (cell.length === 0 || /^[-–—]$/.test(cell)) continue;
      (groups ? out[i]?.group : out[i]?.own)?.push(cell);
    }
  }
  return out.map((c) => ({ own: c.own.join(' '), group: c.group.join(' ') }));
}

/** The weighted share of `terms` that `have` holds (0 when the terms weigh nothing). */
export function weighted(
  terms: readonly string[],
  have: (t: string) => boolean,
  weight: (t: string) => number,
): number {
  let all = 0;
  let hit = 0;
  for (const t of terms) {
    const w = weight(t);
    all += w;
    if (have(t)) hit += w;
  }
  return all === 0 ? 0 : hit / all;
}

/**
 * Whether a cell holds a value of the asked type: a quantity a number the question does not give, a date a date or
 * year, a name letters and no digits; the open types take any non-empty cell.
 */
export function cellFits(value: string, type: AnswerType, question: string): boolean {
  if (!/[\p{L}\p{N}]/u.test(value)) return false;
  if (type === 'entity') return /\p{L}/u.test(value) && !/\d/.test(value);
  return type === 'quantity' || type === 'date' ? holdsAnswerType(value, type, question) : true;
}

/**
 * Words naming the table itself or its parts ("the stock table", "the Vodafone workbook"): a question uses them to
 * point at the table, and no column header says them.
 */
const CONTAINER = new Set(
  analyze('table tables sheet sheets spreadsheet spreadsheets workbook workbooks column columns row rows'),
);

/** The words naming what is asked, between an interrogative and the verb or preposition after it. */
const ASKED_NOUN =
  /\b(?:how\s+(?:many|much)|(?:which|what)(?:\s+(?:is|are|was|were))?(?:\s+(?:the|an?))?)\s+((?:[\p{L}\p{N}][\p{L}\p{N}'’-]*\s+){1,4}?)(?:is|are|was|were|do|does|did|has|have|had|will|would|can|could|should|of|in|for|on|at|by|to|from|with)\b/iu;

/** The question's asked noun phrase ("how many Stanley Cups have …" → "Stanley Cups"), or '' when it names none. */
export function askedNoun(question: string): string {
  return ASKED_NOUN.exec(question)?.[1]?.trim() ?? '';
}

/** Drops a term that is part of another asked term ("qx" of "qx9"): one word of the question counts once. */
function wholeTerms(terms: readonly string[]): string[] {
  return terms.filter((t) => !terms.some((u) => u !== t && u.length > t.length && u.startsWith(t) && /\d/.test(u)));
}

const exact = (have: ReadonlySet<string>, term: string) => have.has(term);
const isNumberTerm = (t: string) => /^\d[\d.,]*$/.test(t);
/** A year term ("2023"): what a table's period label names. */
const isYearTerm = (t: string) => /^(?:1[5-9]|2[0-2])\d\d$/.test(t);

const MONTH_NAMES = [
  'jan(?:uary)?',
  'feb(?:ruary)?',
  'mar(?:ch)?',
  'apr(?:il)?',
  'may',
  'june?',
  'july?',
  'aug(?:ust)?',
  'sep(?:t(?:ember)?)?',
  'oct(?:ober)?',
  'nov(?:ember)?',
  'dec(?:ember)?',
];
const MONTH_WORD = new RegExp(String.raw`\b(${MONTH_NAMES.map((m) => `(${m})`).join('|')})\b`, 'giu');
/** A year and month in a name or code ("report-2015-11.pdf", "2015_11"). */
const YEAR_MONTH = /(?:^|[^\d])(?:1[5-9]|2[0-2])\d\d[-_.](0[1-9]|1[0-2])(?![\d])/g;

/**
 * The months (1–12) a text names: month names ("November", "Nov"; "May" only capitalised, not the verb) and, when
 * `codes`, year-month codes in names ("2015-11").
 */
export function monthsNamed(text: string, codes: boolean): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(MONTH_WORD)) {
    const index = m.slice(2).findIndex((g) => g !== undefined);
    if (index === 4 && m[0] !== 'May') continue;
    out.add(index + 1);
  }
  if (codes) for (const m of text.matchAll(YEAR_MONTH)) out.add(Number(m[1]));
  return out;
}

/**
 * Whether a period label (a table's header lines, a column's header) names another period than the asked one: it
 * names years and none of the question's years. The label nearest the values decides, not the sheet or file name
 * ("… 30 06 2023" over a table captioned "January–June 2022"); a question naming no year is never excluded.
 */
function otherMonth(asked: ReadonlySet<number>, label: string): boolean {
  if (asked.size === 0) return false;
  const named = monthsNamed(label, true);
  return named.size > 0 && ![...asked].some((m) => named.has(m));
}

export function namesOtherPeriod(label: ReadonlySet<string>, askedYears: readonly string[]): boolean {
  if (askedYears.length === 0 || ![...label].some(isYearTerm)) return false;
  return !askedYears.some((y) => label.has(y));
}

/**
 * A cell that is one code or number ("NW-2001", "EMP_04", "10482"): an identifier column, not the row's name. (A
 * numeric table row whose first cell has no letter is still no data row, `isDataRow`: dates first, as in a layoff
 * listing, were tried as identifiers and lost an own-set answer, docs/benchmarks-agent.md.)
 */
export function isIdentifierCell(cell: string): boolean {
  return /^(?=\S*\d)[\p{L}\p{N}][\p{L}\p{N}._/#-]*$/u.test(cell.trim());
}

/**
 * The cell that names the row: the first, or, when the first is an identifier (an article number, an employee id),
 * the first cell after it with letters ("NW-2001 | Cordless drill 18V | …" is the cordless drill's row).
 */
export function labelIndex(cells: readonly string[]): number {
  if (!isIdentifierCell(cells[0] ?? '')) return 0;
  const i = cells.findIndex((c, j) => j > 0 && /\p{L}{2}/u.test(c) && !isIdentifierCell(c));
  return Math.max(0, i);
}

/** The key cell of a row: its label when that names an asked term, else a cell naming a specific asked term. */
function keyCell(cells: readonly string[], q: TableQuery, has: NonNullable<TableQuery['has']>) {
  let best: { index: number; terms: Set<string>; coverage: number } | null = null;
  const label = labelIndex(cells);
  for (const [index, cell] of cells.entries()) {
    const terms = new Set(analyze(cell));
    const named = q.terms.filter((t) => has(terms, t) && !isNumberTerm(t));
    if (named.length === 0) continue;
    if (index !== label && index > 0 && !named.some((t) => q.specific?.has(t))) continue;
    const coverage = weighted(q.terms, (t) => has(terms, t), q.weight);
    // The row's name settles its key, unless an identifier before it already names what the question asks.
    if (index === label && coverage > 0 && !best) return { index, terms, coverage };
    if (!best || coverage > best.coverage) best = { index, terms, coverage };
  }
  return best;
}

/**
 * The one-record tables of a chunk: a header line and one line of text cells under it, with no other table line
 * next to them ("Title of each class | | Trading symbol | …" over "Common stock | | GLXZ | …"), a form laid out as a
 * table. Its record is about what the chunk around it names (the company on a filing's cover page), not about its
 * first cell. Tables with numeric rows are read by `tableRows`.
 */
export function recordRows(text: string): { row: TableLine; headers: TableLine[] }[] {
  const out: { row: TableLine; headers: TableLine[] }[] = [];
  let run: TableLine[] = [];
  const flush = () => {
    const [head, body] = run;
    if (run.length === 2 && head && body && !isDataRow(head.cells) && !isDataRow(body.cells))
      if (body.cells.length <= head.cells.length && body.cells.slice(1).some((c) => /\p{L}|\d/u.test(c)))
        out.push({ row: body, headers: [head] });
    run = [];
  };
  let offset = 0;
  for (const raw of text.split('\n')) {
    const trimmed = raw.trim();
    const start = offset + (raw.length - raw.trimStart().length);
    offset += raw.length + 1;
    if (!isTableLine(trimmed)) flush();
    else run.push({ text: trimmed, start, end: start + trimmed.length, cells: cellsOf(trimmed) });
  }
  flush();
  return out;
}

/**
 * The key of a one-record table: the question's names and codes, every one of them named by the record's cells or
 * the chunk around the table (its caption); a question naming nothing specific has no record to look up.
 */
function recordKey(
  cells: readonly string[],
  caption: ReadonlySet<string>,
  q: TableQuery,
  has: NonNullable<TableQuery['has']>,
): { index: number; terms: Set<string>; coverage: number } | null {
  const own = new Set(cells.flatMap((c) => analyze(c)));
  const names = q.terms.filter((t) => q.specific?.has(t) && !isNumberTerm(t));
  if (names.length === 0 || !names.every((t) => has(own, t) || has(caption, t))) return null;
  // The codes' numbers count with them ("SNB22-3" names the record as a row keyed "SNB22-3" would); a year is a
  // condition on the table's period, checked apart.
  const terms = new Set(
    q.terms.filter((t) => q.specific?.has(t) && !isYearTerm(t) && (has(own, t) || has(caption, t))),
  );
  return { index: -1, terms, coverage: weighted(q.terms, (t) => has(terms, t), q.weight) };
}

/** A row's key with the names its caption gives the whole record (a one-row table's label names only the variant). */
function withCaptionNames(
  cell: ReturnType<typeof keyCell>,
  record: ReturnType<typeof recordKey>,
  q: TableQuery,
  has: NonNullable<TableQuery['has']>,
): ReturnType<typeof keyCell> {
  if (!cell || !record) return cell ?? record;
  const terms = new Set([...cell.terms, ...record.terms]);
  return { index: cell.index, terms, coverage: weighted(q.terms, (t) => has(terms, t), q.weight) };
}

/** Columns that are empty in every row and header line of a table: they separate column groups. */
export function emptyColumns(lines: readonly TableLine[], width: number): Set<number> {
  const out = new Set<number>();
  for (let i = 1; i < width; i++) if (lines.every((l) => (l.cells[i] ?? '') === '')) out.add(i);
  return out;
}

/** Words heading a row's total column (English, French, German). */
const TOTAL = new Set(analyze('total totals gesamt insgesamt summe'));

/**
 * The row's total column, when the table's caption says the whole asked attribute ("how many NICS checks did Texas
 * have" over a table captioned "NICS checks" whose last column is "Totals"): the column whose own header is only a
 * total word and whose cell fits the asked type.
 */
function totalColumn(
  row: TableLine,
  heads: readonly { own: string; group: string }[],
  captionSaysAttribute: boolean,
  q: TableQuery,
): { index: number; score: number; precision: number; said: number } | null {
  if (!captionSaysAttribute) return null;
  for (const [index, head] of heads.entries()) {
    const own = analyze(head.own);
    const value = row.cells[index] ?? '';
    if (index > 0 && own.length > 0 && own.every((t) => TOTAL.has(t)) && (q.fits ? q.fits(value) : /\d/.test(value)))
      return { index, score: 0, precision: 0, said: 1 };
  }
  return null;
}

/**
 * The one value of a row read without column headers: when the row holds exactly one value cell of the asked type
 * besides its key, that cell is what the row records about the key, and the row's other cells ("DISTRICT DIRECTOR")
 * say what it is. `said` is the share of the asked attribute words those cells hold; a verb the listing only implies
 * ("paid") may be missing, the rest must be there (see `answersFromTable`). A row with two values says nothing of
 * which one is asked.
 */
export function onlyValue(
  row: TableLine,
  keyIndex: number,
  attribute: readonly string[],
  q: TableQuery,
  has: NonNullable<TableQuery['has']>,
): { index: number; score: number; precision: number; said: number } | null {
  const values = row.cells
    .map((cell, index) => ({ cell, index }))
    .filter(
      ({ cell, index }) => index !== keyIndex && isValueCell(cell) && /\d/.test(cell) && (q.fits?.(cell) ?? true),
    );
  const [value] = values;
  if (!value || values.length !== 1 || attribute.length === 0) return null;
  const described = new Set(
    row.cells.filter((_, i) => i !== keyIndex && i !== value.index).flatMap((cell) => analyze(cell)),
  );
  const said = attribute.filter((t) => has(described, t)).length / attribute.length;
  return { index: value.index, score: 0, precision: 0, said };
}

/** Whether a table hit answers: a column's header says more than `share` of the asked attribute. */
export function answersFromTable(hit: TableHit<TableSource> | null, share: number): boolean {
  return hit !== null && hit.value !== null && hit.attributeCoverage > share;
}

/** The best-matching table cell over the opened chunks, or null when no row's key names an asked term. */
export function bestTableRow<T extends TableSource>(opened: readonly T[], q: TableQuery): TableHit<T> | null {
  const has = q.has ?? exact;
  let best: TableHit<T> | null = null;
  let bestPrecision = 0;
  const askedMonths = monthsNamed(q.question ?? '', false);
  for (const o of opened) {
    // The table's caption: the chunk's sheet, title and file name and its lines that are not table rows.
    const captionLines = [o.chunk.sheet ?? '', o.chunk.title ?? '', o.chunk.filename];
    for (const line of o.chunk.text.split('\n')) if (!isTableLine(line)) captionLines.push(line);
    const captionText = captionLines.join('\n');
    const caption = new Set(analyze(captionText));
    const numeric = tableRows(o.chunk.text);
    const records = recordRows(o.chunk.text);
    const rows = [...numeric, ...transposedRows(numeric), ...records];
    for (const { row, headers } of rows) {
      const record = records.some((r) => r.row === row);
      const sameTable = rows.filter((r) => r.headers === headers).map((r) => r.row);
      // A table of one data row is a record too ("Bars | 890 | 1000 | 12" under "Mechanical properties of grade
      // SNB22-3"): when its own cells name nothing asked, it is about what its caption names.
      const single = !record && sameTable.length === 1;
      const cellKey = record ? null : keyCell(row.cells, q, has);
      const key = record || single ? withCaptionNames(cellKey, recordKey(row.cells, caption, q, has), q, has) : cellKey;
      if (!key) continue;
      const width = Math.max(row.cells.length, ...headers.map((h) => h.cells.length));
      const heads = columnHeads(headers, width, emptyColumns([...sameTable, ...headers], width));
      // What the question asks beyond the row's key: the column header (with its group label) must say it.
      // A row keyed by its code is named by the cell after the code as well ("BP-20 | Bolt pack | …"): what that cell
      // says is the entity, not the asked attribute.
      const label = labelIndex(row.cells);
      const named =
        label > 0 && key.index !== label ? new Set([...key.terms, ...analyze(row.cells[label] ?? '')]) : key.terms;
      const rest = q.terms.filter((t) => !has(named, t) && !CONTAINER.has(t));
      const asked = (ts: readonly string[]) => wholeTerms(ts.filter((t) => !isNumberTerm(t) && !q.typeNouns?.has(t)));
      const focus = asked((q.focus ?? []).filter((t) => rest.includes(t)));
      const attribute = focus.length > 0 ? focus : asked(rest);
      // The numbers the question gives (a year, a code) must be the row's own: in its cells, its table's header
      // lines or the caption, not in another table of the chunk.
      const own = new Set([
        ...row.cells.flatMap((c) => analyze(c)),
        ...caption,
        ...headers.flatMap((h) => analyze(h.text)),
      ]);
      if (rest.some((t) => isNumberTerm(t) && !own.has(t))) continue;
      // A table whose own header lines name another year than the question's answers nothing.
      const years = rest.filter(isYearTerm);
      const rowTerms = new Set(row.cells.flatMap((c) => analyze(c)));
      const tableLabel = new Set(headers.flatMap((h) => analyze(h.text)));
      if (!years.some((y) => rowTerms.has(y)) && namesOtherPeriod(tableLabel, years)) continue;
      // A question naming a month is not answered by a table whose caption or header names only other months.
      if (otherMonth(askedMonths, `${captionText}\n${headers.map((h) => h.text).join('\n')}`)) continue;
      // The attribute may be said by the table's caption, the corner cells and the key column's header, not by another
      // column's header (a column without a value in this row answers nothing).
      const context = new Set([
        ...caption,
        ...headers.flatMap((h) => analyze(h.cells[0] ?? '')),
        ...analyze(heads[key.index]?.own ?? ''),
      ]);
      let column: { index: number; score: number; precision: number; said: number } | null = null;
      for (let i = 0; i < width; i++) {
        const value = row.cells[i] ?? '';
        if (i === key.index || !(q.fits ? q.fits(value) : /\d/.test(value))) continue;
        const own = new Set(analyze(heads[i]?.own ?? ''));
        // A header naming a unit of the dimension asked ("Price (EUR)" for "how much does X cost") says the attribute.
        const unit = q.unitHeader?.(heads[i]?.own ?? '') ?? false;
        if (!unit && !attribute.some((t) => has(own, t))) continue;
        const head = new Set([...own, ...analyze(heads[i]?.group ?? '')]);
        // A column under another year's label ("January–June 2022" over its group) answers nothing.
        if (namesOtherPeriod(head, years)) continue;
        const score = weighted(rest, (t) => has(head, t), q.weight);
        // Of two headers saying as much, the one saying less else ("Trading operating profit" over "Underlying …").
        const precision = [...own].filter((t) => rest.some((r) => has(new Set([t]), r))).length / own.size;
        const said =
          attribute.filter((t) => has(head, t) || has(context, t) || (unit && q.unitWords?.has(t))).length /
          Math.max(1, attribute.length);
        if (!column || score > column.score || (score === column.score && precision > column.precision))
          column = { index: i, score, precision, said };
      }
      // What the whole table counts, said by its caption ("NICS checks" in the file's name), is the row's total.
      column ??= totalColumn(row, heads, attribute.length > 0 && attribute.every((t) => has(context, t)), q);
      // A table without header lines (a payroll listing: name | title | amount) says what its one value is by the row.
      if (headers.length === 0) column ??= onlyValue(row, key.index, asked(rest), q, has);
      const all = new Set([...key.terms, ...caption, ...headers.flatMap((h) => analyze(h.text))]);
      const coverage = weighted(q.terms, (t) => has(all, t), q.weight);
      const score = key.coverage * 2 + (column?.score ?? 0) + coverage;
      // Of two rows matching alike, the one whose key says least else ("Operating profit" over "Underlying … profit").
      const precision = [...key.terms].filter((t) => q.terms.some((u) => has(new Set([t]), u))).length / key.terms.size;
      const tie = best !== null && Math.abs(score - best.score) < 1e-9;
      if (score > (best?.score ?? -1) + 1e-9 || (tie && precision > bestPrecision)) {
        bestPrecision = precision;
        const head = column === null ? null : heads[column.index];
        best = {
          opened: o,
          row,
          headers,
          label: row.cells[Math.max(0, key.index)] ?? '',
          column: head ? [head.group, head.own].filter(Boolean).join(' ') || null : null,
          value: column === null ? null : (row.cells[column.index] ?? null),
          coverage,
          labelCoverage: key.coverage,
          attributeCoverage: column?.said ?? 0,
          score,
        };
      }
    }
  }
  return best;
}
