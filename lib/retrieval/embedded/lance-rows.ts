import { Field, Int32, List, Schema, Utf8 } from 'apache-arrow';
import type { MetaValue } from '@/lib/domain/typed-meta';
import { dayOf } from '@/lib/retrieval/embedded/filter-predicate';
import { encodeFieldPair, sqlLiteral } from '@/lib/retrieval/embedded/filter-sql';
import { metaCells } from '@/lib/retrieval/embedded/meta-columns';
import type { ChunkDocumentAttributes, IndexedChunk } from '@/lib/retrieval/types';

/** A chunk as kept in memory: everything but its vector (which stays on disk, in LanceDB). */
export type StoredChunk = Omit<IndexedChunk, 'vector'>;

/** Name of the vector column (FixedSizeList<Float32>(dims)), added when an owner's first vector arrives. */
export const VECTOR_COLUMN = 'vector';

/** Column added to tables created before languages were detected (ChunkTable.open adds it). */
export const LANGUAGE_COLUMN = 'language';

/**
 * The chunk's typed values as JSON (what an owner's state is rebuilt from); filters read the typed columns
 * (meta-columns.ts). Added to tables created before typed values were copied into the index (ChunkTable.open).
 */
export const META_JSON_COLUMN = 'metaJson';

/** Columns of an owner's chunk table, without the vector column. */
export const CHUNK_SCHEMA = new Schema([
  new Field('chunkId', new Utf8(), false),
  new Field('documentId', new Utf8(), false),
  new Field('ownerId', new Utf8(), false),
  new Field('chunkIndex', new Int32(), false),
  new Field('text', new Utf8(), false),
  new Field('contextPrefix', new Utf8(), false),
  new Field('tokenCount', new Int32(), false),
  new Field('page', new Int32(), true),
  new Field('sheet', new Utf8(), true),
  new Field('rowStart', new Int32(), true),
  new Field('rowEnd', new Int32(), true),
  new Field('headingPath', new Utf8(), true),
  new Field('charStart', new Int32(), false),
  new Field('charEnd', new Int32(), false),
  new Field('bucketId', new Utf8(), true),
  new Field('mime', new Utf8(), false),
  new Field('filename', new Utf8(), false),
  new Field('title', new Utf8(), true),
  new Field('documentDate', new Utf8(), true),
  // The calendar day of documentDate (YYYY-MM-DD), what date filters compare.
  new Field('documentDay', new Utf8(), true),
  new Field('tags', new List(new Field('item', new Utf8(), true)), false),
  new Field('fieldPairs', new List(new Field('item', new Utf8(), true)), false),
  new Field('fieldsJson', new Utf8(), false),
  // tags again as JSON: reading a list column back is ~20x slower than a string when an owner is loaded.
  new Field('tagsJson', new Utf8(), false),
  new Field('embeddingModel', new Utf8(), true),
  // The chunk's detected language (ISO 639-1 or 'und'); null on rows written before languages were detected.
  new Field(LANGUAGE_COLUMN, new Utf8(), true),
  new Field(META_JSON_COLUMN, new Utf8(), true),
]);

/** Columns read back when an owner's partition is loaded (no vector; the list columns only serve filters). */
export const STORED_COLUMNS = CHUNK_SCHEMA.fields
  .map((field) => field.name)
  .filter((name) => name !== 'tags' && name !== 'fieldPairs');

export type ChunkRow = Record<string, unknown>;

function fieldPairsOf(fields: Record<string, string>): string[] {
  return Object.entries(fields).map(([key, value]) => encodeFieldPair(key, value));
}

/**
 * The row written to LanceDB for a chunk; `vector` only when the table has a vector column. `metaColumns`: the
 * typed-value columns the table has (every one the chunk's values fill must be among them; the others are NULL).
 */
export function chunkToRow(
  chunk: StoredChunk,
  vector: number[] | null,
  withVectorColumn: boolean,
  metaColumns: ReadonlySet<string> = new Set(),
): ChunkRow {
  const row: ChunkRow = {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    ownerId: chunk.ownerId,
    chunkIndex: chunk.index,
    text: chunk.text,
    contextPrefix: chunk.contextPrefix,
    tokenCount: chunk.tokenCount,
    page: chunk.page,
    sheet: chunk.sheet,
    rowStart: chunk.rowStart,
    rowEnd: chunk.rowEnd,
    headingPath: chunk.headingPath,
    charStart: chunk.charStart,
    charEnd: chunk.charEnd,
    bucketId: chunk.bucketId,
    mime: chunk.mime,
    filename: chunk.filename,
    title: chunk.title,
    documentDate: chunk.documentDate,
    documentDay: chunk.documentDate === null ? null : dayOf(chunk.documentDate),
    tags: chunk.tags,
    fieldPairs: fieldPairsOf(chunk.fields),
    fieldsJson: JSON.stringify(chunk.fields),
    tagsJson: JSON.stringify(chunk.tags),
    embeddingModel: vector ? chunk.embeddingModel : null,
    language: chunk.language ?? null,
    [META_JSON_COLUMN]: JSON.stringify(chunk.meta ?? {}),
  };
  const cells = metaCells(chunk.meta ?? {});
  for (const column of metaColumns) row[column] = cells.get(column) ?? null;
  for (const column of cells.keys()) {
    if (!metaColumns.has(column)) throw new Error(`typed-value column ${column} is missing from the table`);
  }
  if (withVectorColumn) row[VECTOR_COLUMN] = vector;
  return row;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : text(value);
}

function integer(value: unknown): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

function nullableInteger(value: unknown): number | null {
  return value === null || value === undefined ? null : integer(value);
}

function parseTags(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === 'string') : [];
}

function parseMeta(json: unknown): Record<string, MetaValue> {
  if (typeof json !== 'string') return {};
  const parsed: unknown = JSON.parse(json);
  const meta: Record<string, MetaValue> = {};
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed)) {
      if (
        typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value))
      )
        meta[key] = value;
    }
  }
  return meta;
}

function parseFields(json: string): Record<string, string> {
  const parsed: unknown = JSON.parse(json);
  const fields: Record<string, string> = {};
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

/** A LanceDB row (as returned by a query) back into the in-memory chunk. */
export function rowToStoredChunk(row: ChunkRow): StoredChunk {
  return {
    chunkId: text(row.chunkId),
    documentId: text(row.documentId),
    ownerId: text(row.ownerId),
    index: integer(row.chunkIndex),
    text: text(row.text),
    contextPrefix: text(row.contextPrefix),
    tokenCount: integer(row.tokenCount),
    page: nullableInteger(row.page),
    sheet: nullableText(row.sheet),
    rowStart: nullableInteger(row.rowStart),
    rowEnd: nullableInteger(row.rowEnd),
    headingPath: nullableText(row.headingPath),
    charStart: integer(row.charStart),
    charEnd: integer(row.charEnd),
    bucketId: nullableText(row.bucketId),
    mime: text(row.mime),
    filename: text(row.filename),
    title: nullableText(row.title),
    documentDate: nullableText(row.documentDate),
    tags: parseTags(text(row.tagsJson)),
    fields: parseFields(text(row.fieldsJson)),
    meta: parseMeta(row[META_JSON_COLUMN]),
    embeddingModel: nullableText(row.embeddingModel),
    // Absent on old rows: the keyword index detects it from the text when it analyses the chunk.
    ...(typeof row.language === 'string' ? { language: row.language } : {}),
  };
}

/** A vector cell (Float32Array / Arrow vector / array / null) as a plain number array. */
export function vectorFromCell(value: unknown): number[] | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Float32Array || Array.isArray(value)) return Array.from(value, Number);
  if (typeof value === 'object' && 'toArray' in value && typeof value.toArray === 'function') {
    const array: unknown = value.toArray();
    if (array instanceof Float32Array || Array.isArray(array)) return Array.from(array, Number);
  }
  return null;
}

/**
 * SQL assignments that set a document's attributes on its rows (for Table.update valuesSql), typed values included:
 * every typed-value column the table has is set (NULL where the document has no such value).
 */
export function attributesToSql(
  attributes: ChunkDocumentAttributes,
  sqlString: (value: string) => string,
  metaColumns: ReadonlySet<string> = new Set(),
): Record<string, string> {
  const nullable = (value: string | null) => (value === null ? 'NULL' : sqlString(value));
  const list = (values: string[]) =>
    values.length === 0
      ? "arrow_cast(make_array(), 'List(Utf8)')"
      : `arrow_cast(make_array(${values.map(sqlString).join(', ')}), 'List(Utf8)')`;
  const cells = metaCells(attributes.meta ?? {});
  const typed: Record<string, string> = { [META_JSON_COLUMN]: sqlString(JSON.stringify(attributes.meta ?? {})) };
  for (const column of metaColumns) {
    const value = cells.get(column);
    typed[column] = value === undefined ? 'NULL' : sqlLiteral(value);
  }
  for (const column of cells.keys()) {
    if (!metaColumns.has(column)) throw new Error(`typed-value column ${column} is missing from the table`);
  }
  return {
    ...typed,
    bucketId: nullable(attributes.bucketId),
    mime: sqlString(attributes.mime),
    filename: sqlString(attributes.filename),
    title: nullable(attributes.title),
    documentDate: nullable(attributes.documentDate),
    documentDay: nullable(attributes.documentDate === null ? null : dayOf(attributes.documentDate)),
    tags: list(attributes.tags),
    fieldPairs: list(fieldPairsOf(attributes.fields)),
    fieldsJson: sqlString(JSON.stringify(attributes.fields)),
    tagsJson: sqlString(JSON.stringify(attributes.tags)),
  };
}
