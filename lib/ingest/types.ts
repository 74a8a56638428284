/**
 * Types shared by the parse + chunk half of ingestion: what a parser returns (a document as located units)
 * and what the chunker returns (chunks that carry their location inside their unit).
 */

import type { ChunkLocation } from '@/lib/retrieval/types';

/** The formats the parsers understand; decided by content (see sniff.ts), never by the extension alone. */
export type DocumentKind =
  | 'pdf'
  | 'docx'
  | 'xlsx'
  | 'csv'
  | 'html'
  | 'markdown'
  | 'text'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'epub'
  | 'rtf'
  | 'doc'
  | 'xls'
  | 'eml'
  | 'msg'
  | 'zip'
  | 'image';

/**
 * One spreadsheet row inside a sheet unit's text. `rowNumber` is 1-based over the data rows (the header row
 * excluded): for XLSX it is the worksheet row number minus the header's row number, so blank rows keep their
 * place; for CSV it is the record index after the header. `charStart`/`charEnd` locate the row's line in
 * `ParsedUnit.text` (no trailing newline).
 */
export interface ParsedRow {
  rowNumber: number;
  charStart: number;
  charEnd: number;
}

/**
 * One located part of a document: a PDF page, a spreadsheet sheet, or a document section (the text under one
 * heading). Chunks never cross units.
 *
 * For sheets, `text` is the header block (any title rows above the column header, then the column header), a
 * newline, then one line per data row (cells joined by " | "); `header` repeats that block and `rows` locates each
 * data row inside `text`.
 */
export interface ParsedUnit {
  /** 0-based position of the unit in the document. */
  ordinal: number;
  /** 1-based PDF page, else null. */
  page: number | null;
  /** Sheet name for XLSX, file name without extension for CSV, else null. */
  sheet: string | null;
  /** Heading titles from the outermost to this section's own heading; empty outside any heading. */
  headingPath: string[];
  text: string;
  /** Sheets only: the header block that starts `text` (lines of cells joined by " | "). */
  header?: string | null;
  /** Sheets only: every non-empty data row, in order. */
  rows?: ParsedRow[];
  /** Set when the text was recognised by OCR: Tesseract's mean word confidence for the unit, 0..100. */
  ocrConfidence?: number | null;
}

/**
 * A file found inside another one (an e-mail attachment, a ZIP member): ingested as its own document of the same
 * owner and bucket, with a reference to its parent.
 */
export interface ChildFile {
  /** The member's or attachment's own file name (no folders). */
  filename: string;
  /** Declared MIME type, a hint only (the child is sniffed like any upload). */
  declaredMime: string | null;
  bytes: Uint8Array;
}

export interface ParsedDocument {
  kind: DocumentKind;
  /** Title from the document's own metadata (PDF info, DOCX/XLSX core properties, HTML title, first H1). */
  title: string | null;
  units: ParsedUnit[];
  /** PDF pages; for other formats the number of units (sheets or sections). */
  pageCount: number;
  /** Non-fatal problems met while parsing (a page that failed to extract, an unknown cell type...). */
  warnings: string[];
  /** Attachments and archive members, to be ingested as documents of their own. */
  children?: ChildFile[];
  /** PDF pages worth reading as pictures (figures, charts, little text): see lib/visual/flag-pages.ts. */
  visualPages?: VisualPageFlag[];
}

export interface VisualPageFlag {
  /** 1-based page number. */
  page: number;
  imageCount: number;
  textChars: number;
  /** "figures", "little_text" or "figures,little_text". */
  reason: string;
}

/**
 * A chunk ready for embedding and indexing. Location fields follow `ChunkLocation` from the retrieval contract:
 * `charStart`/`charEnd` are offsets into the unit's text. For text units `unit.text.slice(charStart, charEnd)
 * === text`. For sheet units the chunk repeats the header: `text === header + '\n' + unit.text.slice(charStart,
 * charEnd)` where the slice is the block of whole data rows rowStart..rowEnd (`repeatedHeader` holds the header,
 * null for text units).
 */
export interface IngestChunk extends ChunkLocation {
  /** 0-based position of the chunk within its document. */
  index: number;
  /** Ordinal of the unit the chunk comes from. */
  unitOrdinal: number;
  text: string;
  repeatedHeader: string | null;
  /** Document title (or file name) and heading path / sheet, to index with the text; not shown as the chunk. */
  contextPrefix: string;
  tokenCount: number;
  /** OCR confidence (0..100) of the unit the chunk comes from when its text was recognised by OCR, else null. */
  ocrConfidence: number | null;
}

export type IngestStage = 'parsing' | 'chunking';

export interface IngestProgress {
  stage: IngestStage;
  /** 0..1 within the stage. */
  fraction: number;
}

export type ProgressCallback = (progress: IngestProgress) => void;

export interface ChunkerOptions {
  /** Target chunk size in tokens (default 500). */
  targetTokens?: number;
  /** Tokens repeated from the end of the previous chunk of the same unit (default 50). */
  overlapTokens?: number;
  /** Used in contextPrefix when the document has no title. */
  filename?: string;
}
