/**
 * Sections of a long document: runs of consecutive chunks that a summary describes. A document with headings is
 * cut where its top two heading levels change; a document without (most PDFs) is cut at page or unit boundaries
 * once a section holds about SECTION_TARGET_TOKENS. Tiny sections join their neighbour, oversized ones split at a
 * chunk boundary. Pure: the same chunks give the same sections.
 */

export interface SectionChunk {
  index: number;
  text: string;
  page: number | null;
  sheet: string | null;
  headingPath: string | null;
  unitOrdinal: number;
  tokenCount: number;
}

export interface Section {
  /** 0-based order within the document. */
  ordinal: number;
  /** Heading path, or a page range such as "pp. 3–5" when the document has no headings. */
  label: string;
  /** Inclusive range of chunk indexes (0-based positions within the document). */
  chunkStart: number;
  chunkEnd: number;
  pageStart: number | null;
  pageEnd: number | null;
  tokenCount: number;
}

export const SECTION_TARGET_TOKENS = 1200;
export const SECTION_MAX_TOKENS = 2400;
const SECTION_MIN_TOKENS = 200;
/** Documents shorter than this many tokens get no section summaries: their chunks already are their sections. */
export const LONG_DOCUMENT_TOKENS = 2 * SECTION_TARGET_TOKENS;

function headingKey(path: string | null): string | null {
  if (!path) return null;
  const parts = path
    .split('>')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 0 ? parts.slice(0, 2).join(' > ') : null;
}

function labelOf(chunks: readonly SectionChunk[]): string {
  const first = chunks[0];
  const key = headingKey(first?.headingPath ?? null);
  if (key) return key;
  const pages = chunks.map((c) => c.page).filter((p): p is number => p !== null);
  if (pages.length > 0) {
    const lo = Math.min(...pages);
    const hi = Math.max(...pages);
    return lo === hi ? `p. ${lo}` : `pp. ${lo}–${hi}`;
  }
  if (first?.sheet) return `sheet ${first.sheet}`;
  const last = chunks[chunks.length - 1];
  return `part ${(first?.index ?? 0) + 1}–${(last?.index ?? 0) + 1}`;
}

function toSection(chunks: readonly SectionChunk[], ordinal: number): Section {
  const pages = chunks.map((c) => c.page).filter((p): p is number => p !== null);
  return {
    ordinal,
    label: labelOf(chunks),
    chunkStart: chunks[0]?.index ?? 0,
    chunkEnd: chunks[chunks.length - 1]?.index ?? 0,
    pageStart: pages.length > 0 ? Math.min(...pages) : null,
    pageEnd: pages.length > 0 ? Math.max(...pages) : null,
    tokenCount: chunks.reduce((n, c) => n + c.tokenCount, 0),
  };
}

/** Cuts a document's chunks (any order) into sections; an empty list for a short document. */
export function buildSections(input: readonly SectionChunk[]): Section[] {
  const chunks = [...input].sort((a, b) => a.index - b.index);
  const total = chunks.reduce((n, c) => n + c.tokenCount, 0);
  if (chunks.length < 2 || total < LONG_DOCUMENT_TOKENS) return [];
  const groups: SectionChunk[][] = [];
  let current: SectionChunk[] = [];
  let tokens = 0;
  for (const chunk of chunks) {
    const prev = current[current.length - 1];
    const key = headingKey(chunk.headingPath);
    const headingChanged = prev !== undefined && key !== null && key !== headingKey(prev.headingPath);
    const unitBoundary = prev !== undefined && prev.unitOrdinal !== chunk.unitOrdinal;
    const full = tokens + chunk.tokenCount > SECTION_MAX_TOKENS;
    const reachedTarget = key === null && unitBoundary && tokens >= SECTION_TARGET_TOKENS;
    if (current.length > 0 && (headingChanged || full || reachedTarget)) {
      groups.push(current);
      current = [];
      tokens = 0;
    }
    current.push(chunk);
    tokens += chunk.tokenCount;
  }
  if (current.length > 0) groups.push(current);
  // A tiny section joins its predecessor when that stays under the maximum.
  const merged: SectionChunk[][] = [];
  for (const group of groups) {
    const size = group.reduce((n, c) => n + c.tokenCount, 0);
    const last = merged[merged.length - 1];
    const lastSize = last ? last.reduce((n, c) => n + c.tokenCount, 0) : 0;
    if (last && size < SECTION_MIN_TOKENS && lastSize + size <= SECTION_MAX_TOKENS) last.push(...group);
    else merged.push(group);
  }
  return merged.length < 2 ? [] : merged.map((g, i) => toSection(g, i));
}
