import { analyze } from '@/lib/retrieval/analyzer';
import type { OpenedChunk } from './state';

/**
 * Table lookups for extractive mode. Parsed documents render a table as lines of cells joined by " | " (spreadsheets,
 * CSV/TSV, Markdown and HTML tables alike); the header lines are the table lines above the first data row. A
 * question is answered from the data row whose label (first cell) names the asked entity and the column whose
 * header names the asked attribute: never from a header row alone.
 */

export interface TableLine {
  text: string;
  start: number;
  end: number;
  cells: string[];
}

export interface TableHit {
  opened: OpenedChunk;
  row: TableLine;
  /** The header lines of the row's table (nearest last). */
  headers: TableLine[];
  label: string;
  /** The matched column's header and the row's value in it, when a column matched. */
  column: string | null;
  value: string | null;
  /** Weighted share of the question's terms the row label, the column header and the table's context cover. */
  coverage: number;
  /** Weighted share covered by the row label alone (the asked entity). */
  labelCoverage: number;
  /** Ranking score: label match first, then column and context. */
  score: number;
}

const VALUE = /^[-−–—+]?[\d.,\s%()]+$|^[—–-]$/;

function isTableLine(line: string): boolean {
  return line.includes(' | ') || /^\s*\|.*\|\s*$/.test(line);
}

function cellsOf(line: string): string[] {
  const t = line.trim();
  // A Markdown row is fenced by pipes on both sides; a spreadsheet row starting with "| " has an empty first cell.
  const body = t.startsWith('|') && t.endsWith('|') ? t.slice(1, -1) : t;
  return body.split('|').map((c) => c.trim());
}

/** A data row: a non-numeric label and at least one value cell. */
export function isDataRow(cells: readonly string[]): boolean {
  const label = cells[0] ?? '';
  if (!/\p{L}/u.test(label) || /^-{3,}$/.test(label)) return false;
  return cells.slice(1).some((c) => c.length > 0 && VALUE.test(c) && /\d/.test(c));
}

/** The tables of a chunk: data rows with the header lines above them. */
export function tableRows(text: string): { row: TableLine; headers: TableLine[] }[] {
  const out: { row: TableLine; headers: TableLine[] }[] = [];
  let headers: TableLine[] = [];
  let inData = false;
  let offset = 0;
  for (const raw of text.split('\n')) {
    const start = offset + (raw.length - raw.trimStart().length);
    offset += raw.length + 1;
    const trimmed = raw.trim();
    if (!isTableLine(trimmed)) {
      if (inData) headers = [];
      inData = false;
      continue;
    }
    const cells = cellsOf(trimmed);
    if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue;
    const line = { text: trimmed, start, end: start + trimmed.length, cells };
    if (isDataRow(cells)) {
      inData = true;
      out.push({ row: line, headers });
    } else if (inData) {
      headers = [line];
      inData = false;
    } else headers = [...headers, line].slice(-3);
  }
  return out;
}

type Weight = (term: string) => number;

function weighted(terms: readonly string[], have: Set<string>, weight: Weight): number {
  let all = 0;
  let hit = 0;
  for (const t of terms) {
    const w = weight(t);
    all += w;
    if (have.has(t)) hit += w;
  }
  return all === 0 ? 0 : hit / all;
}

/** The best-matching data row over the opened chunks, or null when no row label names an asked term. */
export function bestTableRow(
  opened: readonly OpenedChunk[],
  terms: readonly string[],
  weight: Weight,
): TableHit | null {
  let best: TableHit | null = null;
  for (const o of opened) {
    const context = new Set(analyze(`${o.chunk.sheet ?? ''} ${o.chunk.title ?? ''} ${o.chunk.filename}`));
    for (const line of o.chunk.text.split('\n')) if (!isTableLine(line)) for (const t of analyze(line)) context.add(t);
    for (const { row, headers } of tableRows(o.chunk.text)) {
      const labelTerms = new Set(analyze(row.cells[0] ?? ''));
      const labelCoverage = weighted(terms, labelTerms, weight);
      if (labelCoverage === 0) continue;
      for (const h of headers) for (const t of analyze(h.text)) context.add(t);
      let column: number | null = null;
      let columnScore = 0;
      const width = Math.max(row.cells.length, ...headers.map((h) => h.cells.length));
      for (let i = 1; i < width; i++) {
        const value = row.cells[i] ?? '';
        if (!/\d/.test(value)) continue;
        const head = new Set(analyze(headers.map((h) => h.cells[i] ?? '').join(' ')));
        const s = weighted(
          terms.filter((t) => !labelTerms.has(t)),
          head,
          weight,
        );
        if (s > columnScore) {
          columnScore = s;
          column = i;
        }
      }
      const all = new Set([...labelTerms, ...context]);
      const coverage = weighted(terms, all, weight);
      const score = labelCoverage * 2 + columnScore + coverage;
      if (score > (best?.score ?? -1)) {
        best = {
          opened: o,
          row,
          headers,
          label: row.cells[0] ?? '',
          column:
            column === null
              ? null
              : headers
                  .map((h) => h.cells[column] ?? '')
                  .filter(Boolean)
                  .join(' ') || null,
          value: column === null ? null : (row.cells[column] ?? null),
          coverage,
          labelCoverage,
          score,
        };
      }
    }
  }
  return best;
}
