/**
 * Token-aware chunking (by default about 500 tokens with 50 of overlap) that keeps location. Chunks never cross a unit
 * (page, sheet, section). Text is cut at paragraph boundaries when one is near the budget, else at sentence ends,
 * else at line breaks, and only an over-long run without any of those is cut at a word (or, failing that,
 * character) boundary. Every text chunk is an exact slice of its unit's text; sheet chunks are whole rows with
 * the header line repeated in front (see IngestChunk).
 */

import { sheetHeaders } from './sheet-headers';
import { countTokens } from './tokens';
import type { ChunkerOptions, IngestChunk, ParsedDocument, ParsedRow, ParsedUnit, ProgressCallback } from './types';

export const DEFAULT_TARGET_TOKENS = 500;
export const DEFAULT_OVERLAP_TOKENS = 50;

/** A contiguous span of unit text: pieces of one unit tile it without gaps. */
interface Piece {
  start: number;
  end: number;
  tokens: number;
  /** True when the piece begins a new paragraph (a blank line precedes it). */
  paragraphStart: boolean;
}

/** Spans longer than this many characters per target token are split without counting them whole first. */
const MAX_CHARS_PER_TOKEN = 12;
/** Sentence end: terminal punctuation, optional closing quotes/brackets, then whitespace. */
const SENTENCE_END = /[.!?…。！？]+['"”’)\]]*(?=\s)/g;
const PARAGRAPH_GAP = /\n[^\S\n]*\n/g;

/** Whitespace exactly as JavaScript's `\s` and `String.prototype.trim` define it (Unicode spaces included). */
function isSpace(code: number): boolean {
  if (code <= 160) return code === 32 || (code >= 9 && code <= 13) || code === 160;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Moves `end` back off a high surrogate so a cut never separates a surrogate pair. */
function safeCut(text: string, end: number, min: number): number {
  if (end > min && end < text.length) {
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) return end - 1;
  }
  return end;
}

/** Cuts [start, end) into pieces of at most `target` tokens, preferring whitespace; used for over-long runs. */
function hardSplit(text: string, start: number, end: number, target: number, out: Piece[]): void {
  let cur = start;
  let charsPerToken = 3;
  while (cur < end) {
    let length = Math.min(end - cur, Math.max(16, Math.floor(target * charsPerToken)));
    for (;;) {
      let cut = cur + length;
      if (cut < end) {
        const floor = cur + Math.floor(length / 2);
        let k = cut;
        while (k > floor && !isSpace(text.charCodeAt(k - 1))) k--;
        if (k > floor) cut = k;
        cut = safeCut(text, cut, cur + 1);
      }
      const tokens = countTokens(text.slice(cur, cut));
      if (tokens <= target || length <= 16) {
        out.push({ start: cur, end: cut, tokens, paragraphStart: false });
        if (tokens > 0) charsPerToken = Math.max(1, (cut - cur) / tokens);
        cur = cut;
        break;
      }
      length = Math.max(16, Math.floor(length * (target / tokens) * 0.95));
    }
  }
}

/** Splits an over-budget span at line breaks, hard-splitting any line that is still too long. */
function splitLines(text: string, start: number, end: number, target: number, out: Piece[], paragraphStart: boolean) {
  let cur = start;
  let first = true;
  while (cur < end) {
    let nl = text.indexOf('\n', cur + 1);
    if (nl === -1 || nl >= end) nl = end;
    const lineEnd = nl;
    const length = lineEnd - cur;
    const tokens =
      length > target * MAX_CHARS_PER_TOKEN ? Number.POSITIVE_INFINITY : countTokens(text.slice(cur, lineEnd));
    if (tokens <= target) out.push({ start: cur, end: lineEnd, tokens, paragraphStart: first && paragraphStart });
    else hardSplit(text, cur, lineEnd, target, out);
    first = false;
    cur = lineEnd;
  }
}

/** Tiles a unit's text with pieces: sentences within paragraphs, smaller where a sentence exceeds `target`. */
function segment(text: string, target: number): Piece[] {
  const boundaries = new Map<number, boolean>(); // offset → starts a paragraph
  PARAGRAPH_GAP.lastIndex = 0;
  for (let m = PARAGRAPH_GAP.exec(text); m; m = PARAGRAPH_GAP.exec(text)) boundaries.set(m.index, true);
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    const offset = m.index + m[0].length;
    if (!boundaries.has(offset)) boundaries.set(offset, false);
  }
  const offsets = [...boundaries.keys()].filter((o) => o > 0 && o < text.length).sort((a, b) => a - b);
  const pieces: Piece[] = [];
  let start = 0;
  let paragraphStart = true;
  const push = (end: number, nextIsParagraph: boolean) => {
    if (end > start) {
      const length = end - start;
      const tokens =
        length > target * MAX_CHARS_PER_TOKEN ? Number.POSITIVE_INFINITY : countTokens(text.slice(start, end));
      if (tokens <= target) pieces.push({ start, end, tokens, paragraphStart });
      else splitLines(text, start, end, target, pieces, paragraphStart);
    }
    start = end;
    paragraphStart = nextIsParagraph;
  };
  for (const offset of offsets) push(offset, boundaries.get(offset) === true);
  push(text.length, false);
  return pieces;
}

/** Start offset of a word-aligned tail of [start, end) holding at most `maxTokens` tokens (end when none fits). */
function wordTail(text: string, start: number, end: number, maxTokens: number): { offset: number; tokens: number } {
  let offset = Math.max(start, end - maxTokens * 3);
  for (let attempt = 0; attempt < 6 && offset < end; attempt++) {
    while (offset < end && !isSpace(text.charCodeAt(offset))) offset++;
    while (offset < end && isSpace(text.charCodeAt(offset))) offset++;
    if (offset >= end) break;
    const tokens = countTokens(text.slice(offset, end));
    if (tokens <= maxTokens) return { offset, tokens };
    offset += Math.ceil((end - offset) / 4);
  }
  return { offset: end, tokens: 0 };
}

interface Span {
  start: number;
  end: number;
  tokens: number;
}

/** Packs pieces greedily up to `target` tokens, backing off to a paragraph start when one is near, with overlap. */
function packText(text: string, pieces: Piece[], target: number, overlap: number): Span[] {
  const spans: Span[] = [];
  const n = pieces.length;
  let i = 0;
  let startOffset = pieces[0]?.start ?? 0;
  let prefixTokens = 0;
  while (i < n) {
    let tokens = prefixTokens;
    let j = i;
    while (j < n && (j === i || tokens + (pieces[j]?.tokens ?? 0) <= target)) {
      tokens += pieces[j]?.tokens ?? 0;
      j++;
    }
    if (j < n) {
      // Prefer ending before a paragraph that starts in the last 40% of the budget.
      let upTo = tokens;
      for (let k = j - 1; k > i; k--) {
        upTo -= pieces[k]?.tokens ?? 0;
        if (upTo < target * 0.6) break;
        if (pieces[k]?.paragraphStart) {
          tokens = upTo;
          j = k;
          break;
        }
      }
    }
    const last = pieces[j - 1];
    if (!last) break;
    spans.push({ start: startOffset, end: last.end, tokens });
    if (j >= n) break;
    // Overlap: whole trailing pieces worth at most `overlap` tokens, else a word-aligned tail of the last piece.
    let overlapStart = last.end;
    let overlapTokens = 0;
    for (let k = j - 1; k > i; k--) {
      const piece = pieces[k];
      if (!piece || overlapTokens + piece.tokens > overlap) break;
      overlapTokens += piece.tokens;
      overlapStart = piece.start;
    }
    if (overlapTokens === 0 && overlap > 0) {
      const tail = wordTail(text, Math.max(startOffset, last.start), last.end, overlap);
      overlapStart = tail.offset;
      overlapTokens = tail.tokens;
    }
    const next = pieces[j];
    if (!next || overlapTokens + next.tokens > target) {
      overlapStart = next?.start ?? last.end;
      overlapTokens = 0;
    }
    startOffset = overlapStart;
    prefixTokens = overlapTokens;
    i = j;
  }
  return spans;
}

function trimSpan(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return [s, e];
}

/** "Title — Heading > Sub" (or the sheet name): context indexed with each chunk, not part of its text. */
export function buildContextPrefix(title: string | null, unit: ParsedUnit): string {
  const parts: string[] = [];
  if (title) parts.push(title);
  if (unit.headingPath.length > 0) parts.push(unit.headingPath.join(' > '));
  if (unit.sheet) parts.push(`Sheet: ${unit.sheet}`);
  return parts.join(' — ');
}

type ChunkDraft = Omit<IngestChunk, 'index'>;

function chunkTextUnit(unit: ParsedUnit, prefix: string, target: number, overlap: number): ChunkDraft[] {
  const text = unit.text;
  if (text.trim() === '') return [];
  const pieces = segment(text, target);
  const headingPath = unit.headingPath.length > 0 ? unit.headingPath.join(' > ') : null;
  const drafts: ChunkDraft[] = [];
  for (const span of packText(text, pieces, target, overlap)) {
    const [charStart, charEnd] = trimSpan(text, span.start, span.end);
    if (charEnd <= charStart) continue;
    drafts.push({
      unitOrdinal: unit.ordinal,
      text: text.slice(charStart, charEnd),
      repeatedHeader: null,
      contextPrefix: prefix,
      tokenCount: span.tokens,
      page: unit.page,
      sheet: unit.sheet,
      rowStart: null,
      rowEnd: null,
      headingPath,
      charStart,
      charEnd,
      ocrConfidence: unit.ocrConfidence ?? null,
    });
  }
  return drafts;
}

/**
 * Keeps a very wide header line to half the budget so rows still fit. (A quarter cut a wide PDF table header before
 * its last columns, the totals, so no chunk of the table named them.)
 */
function headerForChunks(header: string, target: number): { header: string; tokens: number } {
  const tokens = countTokens(header);
  if (tokens <= target / 2) return { header, tokens };
  const pieces: Piece[] = [];
  hardSplit(header, 0, header.length, Math.floor(target / 2), pieces);
  const first = pieces[0];
  if (!first) return { header: '', tokens: 0 };
  return { header: `${header.slice(0, first.end).trimEnd()} …`, tokens: first.tokens + 1 };
}

function chunkSheetUnit(unit: ParsedUnit, prefix: string, target: number): ChunkDraft[] {
  const rows = unit.rows ?? [];
  const text = unit.text;
  const base = {
    unitOrdinal: unit.ordinal,
    contextPrefix: prefix,
    page: unit.page,
    sheet: unit.sheet,
    headingPath: unit.headingPath.length > 0 ? unit.headingPath.join(' > ') : null,
    ocrConfidence: unit.ocrConfidence ?? null,
  };
  const fullHeader = unit.header ?? '';
  if (rows.length === 0) {
    const [charStart, charEnd] = trimSpan(text, 0, text.length);
    if (charEnd <= charStart) return [];
    const slice = text.slice(charStart, charEnd);
    return [
      {
        ...base,
        text: slice,
        repeatedHeader: null,
        tokenCount: countTokens(slice),
        rowStart: null,
        rowEnd: null,
        charStart,
        charEnd,
      },
    ];
  }
  const headers = sheetHeaders(text, fullHeader, rows);
  const headerCache = new Map<string, { header: string; tokens: number }>();
  const headerAt = (index: number) => {
    const full = headers.headerFor(index);
    let h = headerCache.get(full);
    if (!h) {
      h = full ? headerForChunks(full, target) : { header: '', tokens: 0 };
      headerCache.set(full, h);
    }
    return h;
  };
  // Every header a chunk may repeat fits beside a full budget of rows.
  const headerTokens = Math.max(headerAt(0).tokens, ...headers.blocks.map((b) => headerAt(b.end).tokens));
  const budget = Math.max(1, target - headerTokens - 1);
  const tableEnds = new Map(headers.blocks.map((b) => [b.start, b.end]));
  const drafts: ChunkDraft[] = [];
  const emit = (
    charStart: number,
    charEnd: number,
    tokens: number,
    rowStart: number,
    rowEnd: number,
    first: number,
  ) => {
    const body = text.slice(charStart, charEnd);
    const { header, tokens: hTokens } = headerAt(first);
    drafts.push({
      ...base,
      text: header ? `${header}\n${body}` : body,
      repeatedHeader: header || null,
      tokenCount: tokens + (header ? hTokens + 1 : 0),
      rowStart,
      rowEnd,
      charStart,
      charEnd,
    });
  };
  let blockStart = -1;
  let blockTokens = 0;
  let blockFirstRow = 0;
  let blockFirstIndex = 0;
  let blockLastRow = 0;
  let blockEnd = 0;
  const flush = () => {
    if (blockStart >= 0) emit(blockStart, blockEnd, blockTokens, blockFirstRow, blockLastRow, blockFirstIndex);
    blockStart = -1;
    blockTokens = 0;
  };
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as ParsedRow;
    const length = row.charEnd - row.charStart;
    const rowTokens =
      length > budget * MAX_CHARS_PER_TOKEN
        ? Number.POSITIVE_INFINITY
        : countTokens(text.slice(row.charStart, row.charEnd)) + 1;
    if (rowTokens > budget) {
      flush();
      const parts: Piece[] = [];
      hardSplit(text, row.charStart, row.charEnd, budget, parts);
      for (const part of parts) {
        const [s, e] = trimSpan(text, part.start, part.end);
        if (e > s) emit(s, e, part.tokens, row.rowNumber, row.rowNumber, index);
      }
      continue;
    }
    // A new table of the sheet starts a new chunk unless the current one is still small; a chunk that starts at a
    // table's header block carries those rows as its repeated header instead of in its body.
    const tableEnd = tableEnds.get(index);
    if (blockStart >= 0 && (blockTokens + rowTokens > budget || (tableEnd !== undefined && blockTokens > budget / 2)))
      flush();
    if (blockStart < 0 && tableEnd !== undefined) {
      index = tableEnd - 1;
      continue;
    }
    if (blockStart < 0) {
      blockStart = row.charStart;
      blockFirstRow = row.rowNumber;
      blockFirstIndex = index;
    }
    blockTokens += rowTokens;
    blockLastRow = row.rowNumber;
    blockEnd = row.charEnd;
  }
  flush();
  return drafts;
}

/**
 * Chunks every unit of a parsed document (see the module comment for the rules) and numbers the chunks 0..n-1
 * in document order. Sheet rows are packed without overlap (each chunk repeats the header instead); text chunks
 * overlap by about `overlapTokens`. `tokenCount` is the sum of the pieces' exact counts (within a few tokens of
 * counting the chunk text whole, as chunker.test.ts checks).
 */
export function chunkDocument(
  parsed: ParsedDocument,
  options: ChunkerOptions = {},
  onProgress?: ProgressCallback,
): IngestChunk[] {
  const target = options.targetTokens ?? DEFAULT_TARGET_TOKENS;
  const overlap = Math.min(options.overlapTokens ?? DEFAULT_OVERLAP_TOKENS, Math.floor(target / 2));
  const title = parsed.title ?? options.filename ?? null;
  const chunks: IngestChunk[] = [];
  const total = parsed.units.length;
  let lastReport = 0;
  parsed.units.forEach((unit, position) => {
    const prefix = buildContextPrefix(title, unit);
    const drafts = unit.rows ? chunkSheetUnit(unit, prefix, target) : chunkTextUnit(unit, prefix, target, overlap);
    for (const draft of drafts) chunks.push({ ...draft, index: chunks.length });
    const now = Date.now();
    if (onProgress && (now - lastReport > 100 || position === total - 1)) {
      lastReport = now;
      onProgress({ stage: 'chunking', fraction: (position + 1) / total });
    }
  });
  return chunks;
}
