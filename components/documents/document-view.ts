import type { DocumentStatus, DocumentSummary } from '@/lib/db/documents';
import { kindOfMime } from '@/lib/ingest/mime-by-kind';
import type { DocumentKind } from '@/lib/ingest/types';

/**
 * Pure view logic of the documents dashboard: stage names, status counts, filtering and formatting. No React,
 * no fetching, so every rule here is unit-tested.
 */

export const DOCUMENT_STATUSES: readonly DocumentStatus[] = ['PENDING', 'PROCESSING', 'INDEXED', 'FAILED'];

/** Upload limit per file (the server's default UPLOAD_MAX_BYTES); the server stays the authority. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** What the file picker offers; the server decides by content, so this is a convenience, not a check. */
export const ACCEPTED_FILE_TYPES = [
  '.pdf',
  '.docx',
  '.xlsx',
  '.csv',
  '.tsv',
  '.html',
  '.htm',
  '.md',
  '.markdown',
  '.txt',
  '.pptx',
  '.odt',
  '.ods',
  '.odp',
  '.epub',
  '.rtf',
  '.doc',
  '.xls',
  '.eml',
  '.msg',
  '.zip',
  '.png',
  '.jpg',
  '.jpeg',
  '.tif',
  '.tiff',
  '.webp',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/csv',
  'text/html',
  'text/markdown',
  'text/plain',
].join(',');

export type BucketFilter = 'all' | 'none' | { id: string };
export type StatusFilter = 'all' | DocumentStatus;

export interface DocumentFilter {
  bucket: BucketFilter;
  status: StatusFilter;
  name: string;
}

export const EMPTY_FILTER: DocumentFilter = { bucket: 'all', status: 'all', name: '' };

/** True once a document will not change by itself any more (INDEXED or FAILED). */
export function isFinished(doc: Pick<DocumentSummary, 'status'>): boolean {
  return doc.status === 'INDEXED' || doc.status === 'FAILED';
}

/** True while the server still works on the document (queued or running): it can be cancelled. */
export function isRunning(doc: Pick<DocumentSummary, 'status'>): boolean {
  return doc.status === 'PENDING' || doc.status === 'PROCESSING';
}

const STAGE_LABELS: Record<string, string> = {
  queued: 'Queued',
  waiting: 'Waiting for the search index',
  parsing: 'Parsing',
  chunking: 'Chunking',
  embedding: 'Embedding',
  indexing: 'Indexing',
  done: 'Indexed',
  failed: 'Failed',
};

/** What the page knows of the configuration: null while unknown (then nothing is hidden). */
export interface PipelineConfig {
  /** False when no embedding model answers: documents get no vectors, so there is no embedding stage to show. */
  semanticSearch: boolean | null;
}

const UNKNOWN_CONFIG: PipelineConfig = { semanticSearch: null };

/**
 * The user-facing name of a server stage; unknown stages are shown capitalised rather than hidden. Without an
 * embedder the pipeline passes through its embedding step without embedding anything: that reads as indexing.
 */
export function stageLabel(stage: string, config: PipelineConfig = UNKNOWN_CONFIG): string {
  if (stage === 'embedding' && config.semanticSearch === false) return 'Indexing';
  const known = STAGE_LABELS[stage];
  if (known) return known;
  const clean = stage
    .replace(/[^a-z0-9 _-]/gi, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return clean ? clean.charAt(0).toUpperCase() + clean.slice(1) : 'Working';
}

/** The label of a status in filters and badges. */
export function statusLabel(status: DocumentStatus): string {
  switch (status) {
    case 'PENDING':
      return 'Queued';
    case 'PROCESSING':
      return 'Processing';
    case 'INDEXED':
      return 'Indexed';
    case 'FAILED':
      return 'Failed';
  }
}

/** Clamps a progress value to 0..1 (NaN and garbage read as 0). */
export function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Whole percent of a 0..1 progress value. */
export function percent(value: number): number {
  return Math.round(clampProgress(value) * 100);
}

/** True when the document sits in the bucket filter (`all`, `none` = without bucket, or one bucket). */
export function matchesBucket(doc: Pick<DocumentSummary, 'bucketId'>, bucket: BucketFilter): boolean {
  if (bucket === 'all') return true;
  if (bucket === 'none') return doc.bucketId === null;
  return doc.bucketId === bucket.id;
}

/** Case-insensitive substring match on the file name and the metadata title; blank matches everything. */
export function matchesName(doc: Pick<DocumentSummary, 'filename' | 'metadata'>, name: string): boolean {
  const needle = name.trim().toLocaleLowerCase();
  if (!needle) return true;
  if (doc.filename.toLocaleLowerCase().includes(needle)) return true;
  return (doc.metadata.title ?? '').toLocaleLowerCase().includes(needle);
}

/** The documents that pass every part of the filter, in their original order. */
export function filterDocuments<T extends Pick<DocumentSummary, 'status' | 'bucketId' | 'filename' | 'metadata'>>(
  docs: readonly T[],
  filter: DocumentFilter,
): T[] {
  return docs.filter(
    (d) =>
      matchesBucket(d, filter.bucket) &&
      matchesName(d, filter.name) &&
      (filter.status === 'all' || d.status === filter.status),
  );
}

export type StatusCounts = Record<DocumentStatus | 'all', number>;

/**
 * The header's summary of the whole library, from the same counts (and the same words) as the status filter:
 * "12 documents", then "3 queued", "2 processing", "6 indexed", "1 failed" for the statuses that have any.
 */
export function librarySummary(counts: StatusCounts): {
  total: string;
  parts: { status: DocumentStatus; text: string }[];
} {
  return {
    total: plural(counts.all, 'document'),
    parts: DOCUMENT_STATUSES.filter((s) => counts[s] > 0).map((s) => ({
      status: s,
      text: `${counts[s].toLocaleString('en-US')} ${statusLabel(s).toLocaleLowerCase()}`,
    })),
  };
}

/** Counts per status of the documents in the current bucket and name scope (the status filter is ignored). */
export function countByStatus(
  docs: readonly Pick<DocumentSummary, 'status' | 'bucketId' | 'filename' | 'metadata'>[],
  filter: Pick<DocumentFilter, 'bucket' | 'name'>,
): StatusCounts {
  const counts: StatusCounts = { all: 0, PENDING: 0, PROCESSING: 0, INDEXED: 0, FAILED: 0 };
  for (const d of docs) {
    if (!matchesBucket(d, filter.bucket) || !matchesName(d, filter.name)) continue;
    counts.all += 1;
    counts[d.status] += 1;
  }
  return counts;
}

/** Document counts per bucket id, plus `none` for documents without a bucket. */
export function countByBucket(docs: readonly Pick<DocumentSummary, 'bucketId'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of docs) {
    const key = d.bucketId ?? 'none';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** "1 page", "12 pages" … with a correct plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** Human file size: "0 B", "999 B", "1.2 KB", "34 KB", "5.4 MB", "1.1 GB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export type FileKind =
  | 'pdf'
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'rtf'
  | 'epub'
  | 'email'
  | 'zip'
  | 'image'
  | 'csv'
  | 'html'
  | 'markdown'
  | 'text'
  | 'file';

/**
 * The tile each format the upload reads gets, by the kind the server sniffed (lib/ingest/sniff.ts). A Record over
 * every DocumentKind, so a format added to the parsers cannot be left without its tile.
 */
const KIND_BY_DOCUMENT_KIND: Record<DocumentKind, FileKind> = {
  pdf: 'pdf',
  docx: 'docx',
  doc: 'docx',
  xlsx: 'xlsx',
  xls: 'xlsx',
  pptx: 'pptx',
  odt: 'odt',
  ods: 'ods',
  odp: 'odp',
  rtf: 'rtf',
  epub: 'epub',
  eml: 'email',
  msg: 'email',
  zip: 'zip',
  image: 'image',
  csv: 'csv',
  html: 'html',
  markdown: 'markdown',
  text: 'text',
};

/** File names whose extension is not the name of its format (the rest are read as their DocumentKind). */
const KIND_BY_EXTENSION: Record<string, DocumentKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  tif: 'image',
  tiff: 'image',
  webp: 'image',
  bmp: 'image',
  gif: 'image',
  tsv: 'csv',
  htm: 'html',
  md: 'markdown',
  txt: 'text',
};

const isDocumentKind = (ext: string): ext is DocumentKind => Object.hasOwn(KIND_BY_DOCUMENT_KIND, ext);

/** The kind of file for its icon: the sniffed MIME type first, the extension as a fallback. */
export function fileKind(mime: string, filename: string): FileKind {
  const kind = kindOfMime(mime);
  if (kind) return KIND_BY_DOCUMENT_KIND[kind];
  const ext = /\.([a-z0-9]{1,10})$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  const byExtension = KIND_BY_EXTENSION[ext] ?? (isDocumentKind(ext) ? ext : undefined);
  return byExtension ? KIND_BY_DOCUMENT_KIND[byExtension] : 'file';
}

const KIND_LABELS: Record<FileKind, string> = {
  pdf: 'PDF',
  docx: 'Word',
  xlsx: 'Excel',
  pptx: 'PowerPoint',
  odt: 'OpenDocument text',
  ods: 'OpenDocument spreadsheet',
  odp: 'OpenDocument presentation',
  rtf: 'Rich text',
  epub: 'E-book',
  email: 'E-mail',
  zip: 'ZIP archive',
  image: 'Image',
  csv: 'CSV',
  html: 'HTML',
  markdown: 'Markdown',
  text: 'Text',
  file: 'File',
};

export function fileKindLabel(kind: FileKind): string {
  return KIND_LABELS[kind];
}

/**
 * "3 pages · 12 chunks" for an indexed document (parts the server did not report are left out). The server's page
 * count is PDF pages, spreadsheet sheets, or text sections, and is named accordingly when the type is known.
 */
export function describeIndexed(doc: Pick<DocumentSummary, 'pageCount' | 'chunkCount'> & { mime?: string }): string {
  const parts: string[] = [];
  const unit =
    !doc.mime || doc.mime === 'application/pdf' ? 'page' : /sheet|csv|excel/.test(doc.mime) ? 'sheet' : 'section';
  if (doc.pageCount !== null) parts.push(plural(doc.pageCount, unit));
  if (doc.chunkCount !== null) parts.push(plural(doc.chunkCount, 'chunk'));
  return parts.join(' · ');
}

/** Short date for rows: "Jun 20, 2023" (UTC for ISO dates, so a date never shifts by a day). */
export function formatDate(isoDateOrTimestamp: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(isoDateOrTimestamp)
    ? new Date(`${isoDateOrTimestamp}T00:00:00Z`)
    : new Date(isoDateOrTimestamp);
  if (Number.isNaN(date.getTime())) return isoDateOrTimestamp;
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(/^\d{4}-\d{2}-\d{2}$/.test(isoDateOrTimestamp) ? { timeZone: 'UTC' } : {}),
  });
}

/**
 * The list after a poll: the server's rows, in the server's order. Documents the user added locally after the
 * poll started are kept by the caller discarding stale polls, so this only has to merge for identity: an
 * unchanged row keeps its old object, so React skips re-rendering it.
 */
export function mergeDocuments(
  previous: readonly DocumentSummary[],
  next: readonly DocumentSummary[],
): DocumentSummary[] {
  const byId = new Map(previous.map((d) => [d.id, d]));
  return next.map((d) => {
    const old = byId.get(d.id);
    return old && sameDocument(old, d) ? old : d;
  });
}

/** Field-by-field equality of two summaries (metadata and warnings compared by value). */
export function sameDocument(a: DocumentSummary, b: DocumentSummary): boolean {
  for (const key of Object.keys(b) as (keyof DocumentSummary)[]) {
    if (key === 'metadata' || key === 'warnings') continue;
    if (a[key] !== b[key]) return false;
  }
  return JSON.stringify(a.metadata) === JSON.stringify(b.metadata) && a.warnings.join('\n') === b.warnings.join('\n');
}

/** Inserts or replaces one document, keeping the list newest first. */
export function upsertDocument(list: readonly DocumentSummary[], doc: DocumentSummary): DocumentSummary[] {
  const index = list.findIndex((d) => d.id === doc.id);
  if (index === -1) {
    return [...list, doc].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }
  const copy = list.slice();
  copy[index] = doc;
  return copy;
}

/** The documents whose status changed to a final one between two lists (for screen-reader announcements). */
export function newlyFinished(
  previous: readonly Pick<DocumentSummary, 'id' | 'status'>[],
  next: readonly DocumentSummary[],
): DocumentSummary[] {
  const before = new Map(previous.map((d) => [d.id, d.status]));
  return next.filter((d) => {
    const old = before.get(d.id);
    return old !== undefined && !isFinished({ status: old }) && isFinished(d);
  });
}

/** The pipeline a file goes through, as drawn in every row: the browser's upload, then the server's stages. */
export const TRACK_STAGES = ['Upload', 'Queue', 'Parse', 'Chunk', 'Embed', 'Index'] as const;

/** The stages drawn for a configuration: no "Embed" segment when no embedder answers. */
export function trackStages(config: PipelineConfig = UNKNOWN_CONFIG): readonly string[] {
  return config.semanticSearch === false ? TRACK_STAGES.filter((s) => s !== 'Embed') : TRACK_STAGES;
}

/**
 * Where each server stage sits in the document's overall 0..1 progress (mirrors the ingest pipeline), used to
 * fill the current segment; an unknown stage simply shows as half done.
 */
const SERVER_SPANS: Record<string, [number, number]> = {
  parsing: [0.02, 0.4],
  chunking: [0.4, 0.5],
  embedding: [0.5, 0.85],
  indexing: [0.85, 0.99],
};

const STAGE_INDEX: Record<string, number> = {
  queued: 1,
  waiting: 1,
  parsing: 2,
  chunking: 3,
  embedding: 4,
  indexing: 5,
};

/**
 * The segment a server stage fills (an index into trackStages(config)), and how far (0..1) into it the overall
 * progress is. Without an embedder, embedding and indexing share the last segment.
 */
export function trackPosition(
  stage: string,
  progress: number,
  config: PipelineConfig = UNKNOWN_CONFIG,
): { index: number; fraction: number } {
  if (config.semanticSearch === false && (stage === 'embedding' || stage === 'indexing')) {
    return { index: 4, fraction: clampProgress((clampProgress(progress) - 0.5) / (0.99 - 0.5)) };
  }
  const index = STAGE_INDEX[stage] ?? 2;
  const span = SERVER_SPANS[stage];
  if (!span) return { index, fraction: stage === 'queued' ? 0 : 0.5 };
  const [from, to] = span;
  return { index, fraction: clampProgress((clampProgress(progress) - from) / (to - from)) };
}

/** Where a chunk sits: "Page 3", "Sheet Sales · row 4" / "rows 4–20", "Intro > Scope", "Part 2" as a last resort. */
export function chunkLocation(c: {
  page: number | null;
  sheet: string | null;
  rowStart: number | null;
  rowEnd: number | null;
  headingPath: string | null;
  unitOrdinal: number;
}): string {
  const parts: string[] = [];
  if (c.page !== null) parts.push(`Page ${c.page}`);
  if (c.sheet) parts.push(`Sheet ${c.sheet}`);
  if (c.rowStart !== null) {
    const end = c.rowEnd ?? c.rowStart;
    parts.push(end > c.rowStart ? `rows ${c.rowStart}–${end}` : `row ${c.rowStart}`);
  }
  if (c.headingPath) parts.push(c.headingPath);
  return parts.length > 0 ? parts.join(' · ') : `Part ${c.unitOrdinal + 1}`;
}

/** The name of a document's units for its type: pages (PDF), sheets (spreadsheets), sections (the rest). */
export function unitNoun(mime: string): 'page' | 'sheet' | 'section' {
  if (mime === 'application/pdf') return 'page';
  return /sheet|csv|excel/.test(mime) ? 'sheet' : 'section';
}

/** A timestamp for the processing history: "Jun 20, 2023, 14:05 UTC" (UTC, so server and browser agree). */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  })} UTC`;
}
