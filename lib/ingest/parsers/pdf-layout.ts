/**
 * Reading order and tables of one PDF page, from the positions of pdf.js text items (no rendering, no model).
 *
 * - Orientation: every item's text matrix gives its direction (0°, 90°, 180°, 270°, rounded). Items are moved into
 *   the frame of their own direction, so a page whose text runs bottom-to-top (a landscape table printed on a
 *   portrait page) is read along its lines. The direction holding most characters is read first, the others after.
 *   A page /Rotate needs nothing: it turns the display, not the text matrices.
 * - Lines: items on one baseline (within 0.5 of the font size); a line splits into segments where the horizontal
 *   gap exceeds 1.5 font sizes (a word gap in justified prose stays under one); inside a table found that way, cells
 *   split again at gaps over one font size.
 * - Columns: a gutter is a vertical band, in the middle 70 % of the text's width and at least half a font size wide,
 *   that no more than 20 % of the lines cross, with prose on both sides: at least 5 lines each, columns at least
 *   15 font sizes wide, and at least half the lines of each running unbroken across 60 % of its width. Lines
 *   crossing it (titles, wide figures) cut the flow: the columns between two such lines are read left, then right.
 *   Columns are searched again inside each column (three-column pages).
 * - Tables: at least 3 consecutive lines of 2 or more segments, at most 3 font sizes apart, whose segments fall in
 *   2 or more column bands that no line crosses (the x gaps are consistent down the rows); a one-segment line close
 *   under a row and inside one band is a wrapped cell of that row. Each row's cells are its segments by band; the
 *   first row is the header. A run is not a table when
 *   - a column holds sentences (median cell of 8 or more words), or one column spans 70 % of the width with 4 or
 *     more words a cell (prose beside margin notes), or every column's median cell has 4 or more words (prose side
 *     by side);
 *   - most cells below the first row start in lower case (sentences wrapped from line to line);
 *   - fewer than 60 % of its cells hold a letter or digit, or its words (numbers aside) average under 2.5
 *     characters (a formula spread over a line);
 *   - its first column counts 1, 2, 3... from its first row (numbered lines without a header: transcripts).
 * These are general properties of tables and prose, not fitted to one file; docs/formats.md gives what they find in
 * the shared corpus.
 */

/** A pdf.js text item as getTextContent returns it (only the fields read here). */
interface RawItem {
  str?: unknown;
  transform?: unknown;
  width?: unknown;
}

interface Item {
  str: string;
  /** Position in the item's own reading frame: x grows along the text, y grows up the page in that frame. */
  x: number;
  y: number;
  width: number;
  size: number;
}

interface Segment {
  x0: number;
  x1: number;
  text: string;
  words: number;
}

interface Line {
  y: number;
  size: number;
  /** Items left to right. */
  items: Item[];
  segments: Segment[];
}

type LayoutBlock = { kind: 'text'; text: string } | { kind: 'table'; rows: string[][] };

export interface PageLayout {
  /** Text and tables in reading order. */
  blocks: LayoutBlock[];
  /**
   * True when the positional reading differs in kind from the content-stream order: text in another direction
   * dominates, a gutter splits columns, or a table was found. False pages keep pdf.js's stream order.
   */
  restructured: boolean;
}

const LINE_TOLERANCE = 0.5;
const SEGMENT_GAP = 1.5;
/** Inside a table found with SEGMENT_GAP, cells are split again at this gap (tight numeric columns). */
const CELL_GAP = 1.0;
const WORD_GAP = 0.15;
const MIN_TABLE_ROWS = 3;
const MAX_ROW_GAP = 3;
/** Lines a failed run is retried from, one further each time, before the rest of it is taken as text. */
const MAX_RETRIES = 4;
/** A line this close (in font sizes) under a row, inside one column, continues a cell of that row. */
const WRAP_GAP = 1.6;
const PROSE_CELL_WORDS = 8;
const WIDE_BAND_SHARE = 0.7;
const WIDE_BAND_WORDS = 4;
const MIN_FILLED_SHARE = 0.6;
const MIN_TOKEN_CHARS = 2.5;
const NUMBER = /^[-+−(]?[\d.,]+[)%]?$/u;
const MIN_COLUMN_LINES = 5;
const MAX_GUTTER_CROSSING = 0.2;
const MIN_COLUMN_SIZES = 15;
const MIN_GUTTER_SIZES = 0.5;
/** Gutters are looked for between this share of the text's width from either side. */
const GUTTER_ZONE = 0.15;
const FULL_LINE = 0.6;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Quarter turns (0..3, counter-clockwise) of a text matrix's direction, rounded to the nearest. */
function quarterTurns(transform: readonly number[]): number {
  const [a = 1, b = 0] = transform;
  const angle = Math.atan2(b, a);
  return ((Math.round(angle / (Math.PI / 2)) % 4) + 4) % 4;
}

function toItems(raw: readonly unknown[]): Map<number, Item[]> {
  const byTurn = new Map<number, Item[]>();
  for (const entry of raw) {
    const item = entry as RawItem;
    if (typeof item.str !== 'string' || !Array.isArray(item.transform)) continue;
    const str = item.str.replace(/\u0000/g, '');
    if (str.trim() === '') continue;
    const t = item.transform as number[];
    if (t.length < 6 || t.some((n) => typeof n !== 'number' || !Number.isFinite(n))) continue;
    const turns = quarterTurns(t);
    const cos = [1, 0, -1, 0][turns] ?? 1;
    const sin = [0, 1, 0, -1][turns] ?? 0;
    const [, , c = 0, d = 0, e = 0, f = 0] = t;
    const size = Math.hypot(c, d) || 1;
    const width = typeof item.width === 'number' && Number.isFinite(item.width) ? Math.abs(item.width) : 0;
    const list = byTurn.get(turns) ?? [];
    list.push({ str, x: e * cos + f * sin, y: -e * sin + f * cos, width, size });
    byTurn.set(turns, list);
  }
  return byTurn;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Items of one direction → lines top to bottom, each split into segments at wide gaps. */
function buildLines(items: Item[]): Line[] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: Item[][] = [];
  let current: Item[] = [];
  let baseline = Number.NaN;
  let size = 0;
  for (const item of sorted) {
    if (current.length > 0 && Math.abs(item.y - baseline) <= LINE_TOLERANCE * Math.min(size, item.size)) {
      current.push(item);
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [item];
    baseline = item.y;
    size = item.size;
  }
  if (current.length > 0) groups.push(current);
  return groups.map((group) => {
    group.sort((a, b) => a.x - b.x);
    return lineOf(group);
  });
}

function lineOf(items: Item[]): Line {
  return {
    y: median(items.map((i) => i.y)),
    size: median(items.map((i) => i.size)),
    items,
    segments: segmentsOf(items),
  };
}

/** Items of one line (left to right) → segments, split where the gap exceeds SEGMENT_GAP font sizes. */
function segmentsOf(items: Item[], gapSizes = SEGMENT_GAP): Segment[] {
  const segments: Segment[] = [];
  let segment: Segment | null = null;
  let end = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const gap = item.x - end;
    if (!segment || gap > gapSizes * item.size) {
      segment = { x0: item.x, x1: item.x + item.width, text: item.str, words: 0 };
      segments.push(segment);
    } else {
      const joint = gap > WORD_GAP * item.size && !/\s$/.test(segment.text) && !/^\s/.test(item.str) ? ' ' : '';
      segment.text += joint + item.str;
      segment.x1 = Math.max(segment.x1, item.x + item.width);
    }
    end = Math.max(end, item.x + item.width);
  }
  for (const s of segments) {
    s.text = s.text.replace(/\s+/g, ' ').trim();
    s.words = wordCount(s.text);
  }
  return segments.filter((s) => s.text !== '');
}

type Gutter = { from: number; to: number };

/** The parts of a line between gutters (items by their middle), one per column; null where a column has none. */
function split(line: Line, gutters: readonly Gutter[]): (Line | null)[] {
  const parts: Item[][] = gutters.map(() => []);
  parts.push([]);
  for (const item of line.items) {
    const middle = item.x + item.width / 2;
    let column = 0;
    while (column < gutters.length && middle > ((gutters[column]?.from ?? 0) + (gutters[column]?.to ?? 0)) / 2) {
      column++;
    }
    parts[column]?.push(item);
  }
  return parts.map((items) => {
    if (items.length === 0) return null;
    const part = lineOf(items);
    return part.segments.length > 0 ? part : null;
  });
}

/** Whether an item of the line spans one of the gutters. */
function crosses(line: Line, gutters: readonly Gutter[]): boolean {
  return line.items.some((i) => gutters.some((g) => i.x < g.from && i.x + i.width > g.to));
}

/** Whether the gutters cut the lines into prose columns (see the module comment). */
function proseColumns(lines: Line[], gutters: readonly Gutter[], minX: number, maxX: number, size: number): boolean {
  const edges = [minX, ...gutters.flatMap((g) => [g.from, g.to]), maxX];
  const columns = gutters.length + 1;
  const parts: Line[][] = Array.from({ length: columns }, () => []);
  for (const line of lines) {
    if (crosses(line, gutters)) continue;
    split(line, gutters).forEach((part, c) => {
      if (part) parts[c]?.push(part);
    });
  }
  for (let c = 0; c < columns; c++) {
    const width = (edges[2 * c + 1] ?? 0) - (edges[2 * c] ?? 0);
    const part = parts[c] ?? [];
    if (width < MIN_COLUMN_SIZES * size || part.length < MIN_COLUMN_LINES) return false;
    // prose fills its column: most lines run unbroken across most of it (a table's cells, a figure's labels or a
    // formula's pieces do not)
    const full = part.filter((l) => {
      const only = l.segments.length === 1 ? l.segments[0] : undefined;
      return only !== undefined && only.x1 - only.x0 >= FULL_LINE * width;
    }).length;
    if (full < 0.5 * part.length) return false;
  }
  return true;
}

/** The gutters splitting these lines into prose columns, left to right; empty when there are none. */
function findGutters(lines: Line[]): Gutter[] {
  if (lines.length < 2 * MIN_COLUMN_LINES) return [];
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    for (const i of line.items) {
      minX = Math.min(minX, i.x);
      maxX = Math.max(maxX, i.x + i.width);
    }
  }
  const span = maxX - minX;
  const size = median(lines.map((l) => l.size));
  if (!(span > 2 * MIN_COLUMN_SIZES * size)) return [];
  const buckets = Math.min(600, Math.ceil(span));
  const step = span / buckets;
  const cover = new Int32Array(buckets);
  const mark = new Uint8Array(buckets);
  for (const line of lines) {
    mark.fill(0);
    for (const i of line.items) {
      const from = Math.max(0, Math.floor((i.x - minX) / step));
      const to = Math.min(buckets - 1, Math.ceil((i.x + i.width - minX) / step) - 1);
      for (let b = from; b <= to; b++) mark[b] = 1;
    }
    for (let b = 0; b < buckets; b++) cover[b] = (cover[b] ?? 0) + (mark[b] ?? 0);
  }
  const limit = Math.floor(MAX_GUTTER_CROSSING * lines.length);
  const lo = Math.floor(buckets * GUTTER_ZONE);
  const hi = Math.ceil(buckets * (1 - GUTTER_ZONE));
  const candidates: Gutter[] = [];
  for (let b = lo; b < hi; b++) {
    if ((cover[b] ?? 0) > limit) continue;
    let e = b;
    while (e + 1 < buckets && (cover[e + 1] ?? 0) <= limit) e++;
    const from = minX + b * step;
    const to = minX + (e + 1) * step;
    if (to - from >= MIN_GUTTER_SIZES * size) candidates.push({ from, to });
    b = e;
  }
  if (candidates.length === 0) return [];
  if (proseColumns(lines, candidates, minX, maxX, size)) return candidates;
  const widest = candidates.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a));
  return candidates.length > 1 && proseColumns(lines, [widest], minX, maxX, size) ? [widest] : [];
}

/** Lines in reading order: columns split at gutters (once more inside each column), top to bottom within each. */
function orderColumns(lines: Line[], depth: number, found: { columns: boolean }): Line[] {
  const gutters = depth < 2 ? findGutters(lines) : [];
  if (gutters.length === 0) return lines;
  found.columns = true;
  const out: Line[] = [];
  let columns: Line[][] = gutters.map(() => []);
  const flush = () => {
    for (const column of columns) out.push(...orderColumns(column, depth + 1, found));
    columns = [...gutters.map(() => []), []];
  };
  flush();
  for (const line of lines) {
    if (crosses(line, gutters)) {
      flush();
      out.push(line);
      continue;
    }
    split(line, gutters).forEach((part, c) => {
      if (part) columns[c]?.push(part);
    });
  }
  flush();
  return out;
}

/** Column bands of rows: the union of their segments' x ranges, merged where they overlap. */
function bands(rows: readonly Segment[][]): { x0: number; x1: number }[] {
  const spans = rows.flatMap((r) => r.map((s) => ({ x0: s.x0, x1: s.x1 }))).sort((a, b) => a.x0 - b.x0);
  const merged: { x0: number; x1: number }[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.x0 < last.x1) last.x1 = Math.max(last.x1, s.x1);
    else merged.push({ ...s });
  }
  return merged;
}

/** A table row: its line, then the lines of cells wrapped under it. */
type Row = Line[];

/** A row's segments at a gap (each line split on its own, wrapped lines after the first). */
function rowSegments(row: Row, gapSizes: number): Segment[] {
  return row.flatMap((line) => (gapSizes === SEGMENT_GAP ? line.segments : segmentsOf(line.items, gapSizes)));
}

function tableRows(rows: readonly Row[], gapSizes: number): string[][] | null {
  const segmented = rows.map((row) => rowSegments(row, gapSizes));
  const columns = bands(segmented);
  if (columns.length < 2) return null;
  const cells = segmented.map((row) => {
    const out = columns.map(() => '');
    for (const s of row) {
      const index = columns.findIndex((c) => s.x0 >= c.x0 && s.x1 <= c.x1);
      if (index >= 0) out[index] = out[index] ? `${out[index]} ${s.text}` : s.text;
    }
    return out;
  });
  const used = columns.map((_, c) => cells.some((row) => (row[c] ?? '') !== ''));
  if (used.some((u) => !u)) {
    const kept = cells.map((row) => row.filter((_, c) => used[c]));
    return used.filter(Boolean).length >= 2
      ? checkedTable(
          kept,
          columns.filter((_, c) => used[c]),
        )
      : null;
  }
  return checkedTable(cells, columns);
}

/** The table when it looks like one (filled cells, no prose column, no numbered lines), else null. */
function checkedTable(cells: string[][], columns: { x0: number; x1: number }[]): string[][] | null {
  // mostly filled, with letters or digits in the cells (not formula fragments spread over a line)
  const all = cells.flat();
  const filled = all.filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
  if (filled < MIN_FILLED_SHARE * all.length) return null;
  // formulas laid out over a line (sub- and superscripts, operators) break into one- and two-character tokens
  // (numbers are short by nature and left out)
  const tokens = all.flatMap((t) => t.split(/\s+/).filter((w) => w !== '' && !NUMBER.test(w)));
  const chars = tokens.reduce((n, t) => n + [...t].length, 0);
  if (chars < MIN_TOKEN_CHARS * tokens.length) return null;
  // numbered lines (a transcript's or pleading's margin numbers): the first column counts 1 by 1 from the first row,
  // with no header above it
  const numbers = cells.map((row) => (/^\d{1,4}$/.test(row[0] ?? '') ? Number(row[0]) : Number.NaN));
  if (numbers.every((n, i) => i === 0 || n === (numbers[i - 1] ?? Number.NaN) + 1)) return null;
  const left = columns[0]?.x0 ?? 0;
  const width = (columns[columns.length - 1]?.x1 ?? left) - left;
  let shortest = Number.POSITIVE_INFINITY;
  for (let c = 0; c < columns.length; c++) {
    const band = columns[c];
    if (!band) continue;
    const words = median(
      cells
        .map((row) => row[c] ?? '')
        .filter((t) => t !== '')
        .map(wordCount),
    );
    shortest = Math.min(shortest, words);
    if (words >= PROSE_CELL_WORDS) return null;
    // one band holding most of the width and running text: prose beside a margin (line numbers, labels)
    if (band.x1 - band.x0 >= WIDE_BAND_SHARE * width && words >= WIDE_BAND_WORDS) return null;
  }
  // every column running text: side-by-side prose whose gutter the columns search could not prove
  if (shortest >= WIDE_BAND_WORDS) return null;
  // most cells carrying on a sentence from the line above (starting in lower case): wrapped prose, not records
  const body = cells
    .slice(1)
    .flat()
    .filter((t) => t !== '');
  if (body.filter((t) => /^\p{Ll}/u.test(t)).length >= 0.5 * body.length) return null;
  return cells;
}

/** Splits ordered lines into text and table blocks. */
function findTables(lines: Line[]): LayoutBlock[] {
  const blocks: LayoutBlock[] = [];
  let text: Line[] = [];
  const flushText = () => {
    if (text.length > 0) blocks.push({ kind: 'text', text: linesText(text) });
    text = [];
  };
  let i = 0;
  let retries = 0;
  while (i < lines.length) {
    const first = lines[i];
    if (!first || first.segments.length < 2) {
      if (first) text.push(first);
      i++;
      continue;
    }
    const run: Row[] = [[first]];
    let columns = bands([first.segments]);
    let j = i + 1;
    while (j < lines.length) {
      const next = lines[j];
      const previous = lines[j - 1];
      if (!next || !previous) break;
      const gap = previous.y - next.y;
      const size = Math.max(previous.size, next.size);
      if (next.y > previous.y || gap > MAX_ROW_GAP * size) break;
      if (next.segments.length < 2) {
        // a cell wrapped onto the next line: one segment close under the row, within one column band
        const wrapped = next.segments[0];
        const touched = wrapped ? columns.filter((c) => wrapped.x0 < c.x1 && c.x0 < wrapped.x1).length : 0;
        const last = run[run.length - 1];
        if (!wrapped || touched !== 1 || gap > WRAP_GAP * size || !last) break;
        last.push(next);
        columns = bands([columns.map((c) => ({ ...c, text: '', words: 0 })), next.segments]);
        j++;
        continue;
      }
      const widened = bands([columns.map((c) => ({ ...c, text: '', words: 0 })), next.segments]);
      if (widened.length < 2) break;
      columns = widened;
      run.push([next]);
      j++;
    }
    // a wrapped line after the last row is as likely the next paragraph: leave it to the text
    const tail = run[run.length - 1];
    while (tail && tail.length > 1 && j - 1 > i && lines[j - 1] === tail[tail.length - 1]) {
      tail.pop();
      j--;
    }
    const coarse = run.length >= MIN_TABLE_ROWS ? tableRows(run, SEGMENT_GAP) : null;
    const fine = run.length >= MIN_TABLE_ROWS ? tableRows(run, CELL_GAP) : null;
    const rows = fine && (fine[0]?.length ?? 0) > (coarse?.[0]?.length ?? 0) ? fine : coarse;
    if (rows) {
      flushText();
      blocks.push({ kind: 'table', rows });
      i = j;
      retries = 0;
    } else if (j - i < MIN_TABLE_ROWS || retries < MAX_RETRIES) {
      // the run may start with lines that are not the table's (a title, a caption): retry a line further on
      text.push(first);
      i++;
      retries = j - i + 1 < MIN_TABLE_ROWS ? 0 : retries + 1;
    } else {
      // bounded work: a long run that is no table is text as a whole (no quadratic rescans of its every line)
      text.push(...lines.slice(i, Math.max(i + 1, j)));
      i = Math.max(i + 1, j);
      retries = 0;
    }
  }
  flushText();
  return blocks;
}

/** Lines → text: one line per line (segments joined by a space), a blank line where a paragraph gap is. */
function linesText(lines: Line[]): string {
  let out = '';
  let previous: Line | null = null;
  for (const line of lines) {
    const text = line.segments.map((s) => s.text).join(' ');
    if (previous) {
      const gap = previous.y - line.y;
      out += gap > 2 * Math.max(previous.size, line.size) || gap < 0 ? '\n\n' : '\n';
    }
    out += text;
    previous = line;
  }
  return out;
}

/**
 * The page's text and tables in reading order (see the module comment). Directions other than the dominant one
 * follow it as text of their own.
 */
export function layoutPage(items: readonly unknown[]): PageLayout {
  const byTurn = toItems(items);
  const groups = [...byTurn.entries()]
    .map(([turns, list]) => ({ turns, list, chars: list.reduce((n, i) => n + i.str.length, 0) }))
    .sort((a, b) => b.chars - a.chars);
  const blocks: LayoutBlock[] = [];
  const found = { columns: false };
  let tables = false;
  groups.forEach((group, index) => {
    const ordered = orderColumns(buildLines(group.list), index === 0 ? 0 : 2, found);
    for (const block of findTables(ordered)) {
      if (block.kind === 'table') tables = true;
      blocks.push(block);
    }
  });
  const dominantTurned = (groups[0]?.turns ?? 0) !== 0;
  return { blocks, restructured: dominantTurned || found.columns || tables };
}
