/** RFC 4180 CSV (and TSV / semicolon / pipe separated) → one sheet unit with row numbers. */

import path from 'node:path';
import { IngestError } from '../errors';
import type { ParsedDocument } from '../types';
import { buildSheetUnit } from './sheet-unit';

const CANDIDATES = [',', ';', '\t', '|'] as const;

/**
 * Picks the delimiter that splits the first lines most consistently (quotes respected), preferring ",". A .tsv
 * name means tab.
 */
export function detectDelimiter(text: string, filename = ''): string {
  if (path.extname(filename).toLowerCase() === '.tsv') return '\t';
  const sample = text.slice(0, 16_384);
  let best: { delimiter: string; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of CANDIDATES) {
    const records = parseCsv(sample, delimiter, 20);
    const counts = records.filter((r) => r.length > 1 || (r[0] ?? '') !== '').map((r) => r.length);
    if (counts.length === 0) continue;
    const first = counts[0] ?? 1;
    if (first < 2) continue;
    const consistent = counts.filter((c) => c === first).length / counts.length;
    const score = consistent * Math.min(first, 50);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/**
 * Parses CSV text per RFC 4180: fields separated by `delimiter`, records by CRLF, LF or CR, double-quoted fields
 * may hold delimiters, newlines and doubled quotes. Lenient on malformed input (an unterminated quote runs to the
 * end; characters after a closing quote are kept). Stops after `maxRecords` records.
 */
export function parseCsv(text: string, delimiter = ',', maxRecords = Number.POSITIVE_INFINITY): string[][] {
  const records: string[][] = [];
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  let record: string[] = [];
  let i = 0;
  while (i < n && records.length < maxRecords) {
    let field = '';
    if (text.charCodeAt(i) === 34) {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) {
          field += text.slice(i);
          i = n;
          break;
        }
        field += text.slice(i, q);
        if (text.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    }
    const start = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === d || c === 10 || c === 13) break;
      i++;
    }
    field += text.slice(start, i);
    record.push(field);
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === d) {
      i++;
      if (i >= n) record.push('');
      continue;
    }
    // end of record
    i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    records.push(record);
    record = [];
  }
  if (record.length > 0 && records.length < maxRecords) records.push(record);
  return records;
}

/** CSV text → a ParsedDocument with one sheet (named after the file). Throws IngestError('no-text') when blank. */
export function parseCsvDocument(text: string, filename: string): ParsedDocument {
  const delimiter = detectDelimiter(text, filename);
  const records = parseCsv(text, delimiter);
  const sheet = path.basename(filename, path.extname(filename)) || 'sheet';
  let position = 0;
  const rows = records
    .filter((cells) => cells.some((c) => c.trim() !== ''))
    .map((cells) => {
      position += 1;
      return { position, cells };
    });
  const unit = buildSheetUnit(0, sheet, rows);
  if (!unit) throw new IngestError('no-text', 'no extractable text (the CSV has no non-empty rows)');
  return { kind: 'csv', title: null, units: [unit], pageCount: 1, warnings: [] };
}
