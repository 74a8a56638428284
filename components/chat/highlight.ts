/**
 * Locating a cited chunk and its quoted span in surrounding text, as plain offsets. Document text is hostile: these
 * functions only compute ranges; components render the pieces as text nodes.
 */

export interface Range {
  start: number;
  end: number;
}

export interface PassageInput {
  /** The page/sheet/section text the chunk lies in (may be absent: then the chunk text is shown alone). */
  unitText: string | null;
  chunkText: string;
  /** Offsets of the chunk within the unit text. */
  charStart: number;
  charEnd: number;
  /** The quoted span, with offsets relative to the chunk text. */
  quote: string | null;
  quoteStart: number | null;
  quoteEnd: number | null;
}

export interface LocatedPassage {
  text: string;
  chunk: Range | null;
  quote: Range | null;
}

function validRange(text: string, start: number, end: number): boolean {
  return Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end <= text.length && start < end;
}

/** The quote inside the chunk: its offsets when they point at the quote, else a search for it. */
export function locateQuoteInChunk(
  chunkText: string,
  quote: string | null,
  quoteStart: number | null,
  quoteEnd: number | null,
): Range | null {
  if (quoteStart !== null && quoteEnd !== null && validRange(chunkText, quoteStart, quoteEnd)) {
    if (!quote || chunkText.slice(quoteStart, quoteEnd) === quote) return { start: quoteStart, end: quoteEnd };
  }
  if (!quote) return null;
  const at = chunkText.indexOf(quote);
  if (at >= 0) return { start: at, end: at + quote.length };
  const loose = findLoose(chunkText, quote);
  return loose;
}

/**
 * The chunk within its unit text (by charStart/charEnd when they match, else by searching for the chunk text) and
 * the quote within that; without a usable unit text, the chunk text alone with the quote.
 */
export function locatePassage(input: PassageInput): LocatedPassage {
  const quoteInChunk = locateQuoteInChunk(input.chunkText, input.quote, input.quoteStart, input.quoteEnd);
  const unit = input.unitText;
  if (unit && unit.length > 0) {
    let chunkStart = -1;
    if (
      validRange(unit, input.charStart, input.charEnd) &&
      unit.slice(input.charStart, input.charEnd) === input.chunkText
    ) {
      chunkStart = input.charStart;
    } else if (input.chunkText.length > 0) {
      chunkStart = unit.indexOf(input.chunkText);
    }
    if (chunkStart >= 0) {
      const chunk = { start: chunkStart, end: chunkStart + input.chunkText.length };
      const quote = quoteInChunk
        ? { start: chunkStart + quoteInChunk.start, end: chunkStart + quoteInChunk.end }
        : null;
      return { text: unit, chunk, quote };
    }
  }
  return { text: input.chunkText, chunk: null, quote: quoteInChunk };
}

export interface Segment {
  text: string;
  /** 0 plain, 1 inside the chunk, 2 inside the quote. */
  level: 0 | 1 | 2;
}

/** Splits text into runs by highlight level (the quote wins over the chunk). */
export function segmentText(text: string, chunk: Range | null, quote: Range | null): Segment[] {
  const cuts = new Set<number>([0, text.length]);
  for (const r of [chunk, quote]) {
    if (r) {
      cuts.add(Math.max(0, Math.min(text.length, r.start)));
      cuts.add(Math.max(0, Math.min(text.length, r.end)));
    }
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const start = points[i] ?? 0;
    const end = points[i + 1] ?? 0;
    if (end <= start) continue;
    const inQuote = quote !== null && start >= quote.start && end <= quote.end;
    const inChunk = chunk !== null && start >= chunk.start && end <= chunk.end;
    const level: Segment['level'] = inQuote ? 2 : inChunk ? 1 : 0;
    const last = out[out.length - 1];
    if (last && last.level === level) last.text += text.slice(start, end);
    else out.push({ text: text.slice(start, end), level });
  }
  return out;
}

/** Text reduced for tolerant matching: whitespace removed, NFKC, lower case; `map[i]` is the source index. */
export interface Folded {
  text: string;
  map: number[];
}

/** Folds text for tolerant matching (PDF text layers split and space words differently from extracted text). */
export function fold(text: string): Folded {
  let out = '';
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (/\s/.test(ch) || ch === '\u00ad') continue;
    const folded = ch.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
    for (const f of folded) {
      out += f;
      map.push(i);
    }
  }
  return { text: out, map };
}

/**
 * Finds `needle` in `haystack` ignoring whitespace and case; a needle that does not occur whole is matched by its
 * first and last 40 folded characters (in order, at most 3× the needle's length apart). Offsets are the haystack's.
 */
export function findLoose(haystack: string, needle: string): Range | null {
  const h = fold(haystack);
  const n = fold(needle).text;
  if (n.length === 0 || h.text.length === 0) return null;
  const toRange = (s: number, e: number): Range | null => {
    const start = h.map[s];
    const endSource = h.map[e - 1];
    if (start === undefined || endSource === undefined) return null;
    return { start, end: endSource + 1 };
  };
  const at = h.text.indexOf(n);
  if (at >= 0) return toRange(at, at + n.length);
  if (n.length < 60) return null;
  const head = n.slice(0, 40);
  const tail = n.slice(-40);
  const hs = h.text.indexOf(head);
  if (hs < 0) return null;
  const ts = h.text.indexOf(tail, hs + head.length);
  if (ts < 0 || ts + tail.length - hs > n.length * 3) return null;
  return toRange(hs, ts + tail.length);
}

/**
 * Ranges over a list of pieces (e.g. the spans of a PDF text layer) joined without separators: for each piece that
 * the range touches, the local [start, end) inside it.
 */
export function rangeOverPieces(
  pieces: readonly string[],
  range: Range,
): Array<{ piece: number; start: number; end: number }> {
  const out: Array<{ piece: number; start: number; end: number }> = [];
  let offset = 0;
  for (let i = 0; i < pieces.length; i++) {
    const len = (pieces[i] ?? '').length;
    const start = Math.max(range.start, offset);
    const end = Math.min(range.end, offset + len);
    if (start < end) out.push({ piece: i, start: start - offset, end: end - offset });
    offset += len;
    if (offset >= range.end) break;
  }
  return out;
}
