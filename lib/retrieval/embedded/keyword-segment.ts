import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { createTimeSlicer } from '@/lib/event-loop';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import type { ChunkDocumentAttributes } from '@/lib/retrieval/types';

/**
 * One immutable keyword segment of an owner: postings, term dictionary and per-chunk data in `<name>.idx`
 * (loaded whole, a few bytes per posting), and the chunk records (text, location, attributes) in `<name>.docs`
 * (read record by record with pread, so chunk texts never sit in the JS heap).
 *
 * `.idx` layout: "KWS3" (or "KWS2", the previous version, still read), u32 header length, JSON header (section
 * offsets), then 8-byte aligned sections. Postings: per term, blocks of BLOCK_SIZE postings. Per block: first and
 * last doc, byte offset, a layout word (blockMeta), and the max tf / min length of each field, so a search can bound
 * a term's score in a block without reading it (MaxScore).
 *
 * Version 3 (written now): a block is fixed-width arrays, each aligned to its width (little-endian): the
 * postings' doc offsets from the block's first doc in 1, 2 or 4 bytes (the smallest that holds the block's span),
 * body tfs in 1 or 2 bytes, and, for the few postings with a context tf (5% in real text), a sparse part: their
 * indexes in the block (1 byte), body tfs, context tfs (1 or 2 bytes); their dense body tf is 0. So a probe is a
 * binary search inside a block, and scoring reads the dense arrays by index without data-dependent branches,
 * then adds the sparse postings. blockMeta: postings in the block (bits 0-7), log2 of the doc offset width (8-9),
 * body tf width (10-11), context tf width (12-13), postings with a context tf (16-23). Blocks start 4-byte
 * aligned.
 * Version 2 (read only): a posting is varint(doc delta), varint(bodyTf << 1 | hasContext) [, varint(contextTf)];
 * no blockFirstDoc/blockMeta sections.
 */

export const BLOCK_SIZE = 128;
/** The postings layout written by this code (segments of the previous one are read, and rewritten by merges). */
export const SEGMENT_VERSION = 3;
type SegmentVersion = 2 | 3;
const MAGIC: Record<SegmentVersion, string> = { 2: 'KWS2', 3: 'KWS3' };

/** The attributes filters look at, shared by the chunks of one document. */
export interface AttributeSet extends ChunkDocumentAttributes {
  documentId: string;
}

/** One chunk handed to the segment writer. */
export interface SegmentDoc {
  record: StoredChunk;
  bodyTerms: readonly string[];
  contextTerms: readonly string[];
  /**
   * Terms posted in the body (tf 1) that are no words of the text, so they do not count toward its length
   * (the chunk's language marker: BM25 scores stay those of the text alone).
   */
  markerTerms?: readonly string[];
}

interface Header {
  version: SegmentVersion;
  docs: number;
  terms: number;
  blocks: number;
  totalBody: number;
  totalContext: number;
  sections: Record<string, [number, number]>;
}

function attributeKey(chunk: StoredChunk): string {
  return JSON.stringify([
    chunk.documentId,
    chunk.bucketId,
    chunk.mime,
    chunk.filename,
    chunk.title,
    chunk.documentDate,
    chunk.tags,
    chunk.fields,
    chunk.meta ?? {},
  ]);
}

export function attributesOf(chunk: StoredChunk): AttributeSet {
  return {
    documentId: chunk.documentId,
    bucketId: chunk.bucketId,
    mime: chunk.mime,
    filename: chunk.filename,
    title: chunk.title,
    documentDate: chunk.documentDate,
    tags: chunk.tags,
    fields: chunk.fields,
    meta: chunk.meta ?? {},
  };
}

/** Growable byte buffer with varint writes. */
class ByteWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  /** Pads with zeros to a multiple of `width` bytes. */
  align(width: number): void {
    this.ensure(width);
    while (this.length % width !== 0) this.bytes[this.length++] = 0;
  }

  /** Writes `value` in `width` bytes, little-endian. */
  fixed(value: number, width: number): void {
    this.ensure(width);
    for (let i = 0; i < width; i++) this.bytes[this.length++] = (value >>> (8 * i)) & 0xff;
  }

  varint(value: number): void {
    this.ensure(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

class U32Writer {
  values = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const next = new Uint32Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.length++] = value;
  }

  view(): Uint32Array {
    return this.values.subarray(0, this.length);
  }
}

/** Encodes postings term by term (terms must arrive in byte order); shared by fresh writes and merges. */
export class PostingsEncoder {
  private readonly postings = new ByteWriter();
  private readonly termBytes: Buffer[] = [];
  private readonly df = new U32Writer();
  private readonly blockStart = new U32Writer();
  private readonly firstDoc = new U32Writer();
  private readonly lastDoc = new U32Writer();
  private readonly meta = new U32Writer();
  private readonly offset = new U32Writer();
  private readonly maxTfBody = new U32Writer();
  private readonly minLenBody = new U32Writer();
  private readonly maxTfContext = new U32Writer();
  private readonly minLenContext = new U32Writer();

  constructor(
    private readonly bodyLength: Uint32Array,
    private readonly contextLength: Uint32Array,
    /** The postings layout to write (2 only to test that segments of the previous version are still read). */
    readonly version: SegmentVersion = SEGMENT_VERSION,
  ) {}

  /** Adds one term's postings (docs ascending; tfs packed body | context << 16). */
  addTerm(term: Buffer, docs: ArrayLike<number>, tfs: ArrayLike<number>, count: number): void {
    if (count === 0) return;
    this.termBytes.push(term);
    this.df.push(count);
    this.blockStart.push(this.lastDoc.length);
    let previous = 0;
    for (let start = 0; start < count; start += BLOCK_SIZE) {
      const end = Math.min(count, start + BLOCK_SIZE);
      let maxB = 0;
      let minLB = 0xffffffff;
      let maxC = 0;
      let minLC = 0xffffffff;
      for (let i = start; i < end; i++) {
        const doc = docs[i] as number;
        const packed = tfs[i] as number;
        const tfBody = packed & 0xffff;
        const tfContext = packed >>> 16;
        if (tfBody > 0) {
          if (tfBody > maxB) maxB = tfBody;
          const len = this.bodyLength[doc] as number;
          if (len < minLB) minLB = len;
        }
        if (tfContext > 0) {
          if (tfContext > maxC) maxC = tfContext;
          const len = this.contextLength[doc] as number;
          if (len < minLC) minLC = len;
        }
      }
      if (this.version === 3) {
        this.fixedBlock(docs, tfs, start, end, maxB, maxC);
      } else {
        this.offset.push(this.postings.length);
        for (let i = start; i < end; i++) {
          const doc = docs[i] as number;
          const packed = tfs[i] as number;
          const tfContext = packed >>> 16;
          this.postings.varint(doc - previous);
          previous = doc;
          this.postings.varint(((packed & 0xffff) << 1) | (tfContext > 0 ? 1 : 0));
          if (tfContext > 0) this.postings.varint(tfContext);
        }
      }
      previous = docs[end - 1] as number;
      this.lastDoc.push(previous);
      this.maxTfBody.push(maxB);
      this.minLenBody.push(minLB === 0xffffffff ? 0 : minLB);
      this.maxTfContext.push(maxC);
      this.minLenContext.push(minLC === 0xffffffff ? 0 : minLC);
    }
  }

  /** One block in the fixed-width layout (version 3): doc offsets, body tfs, context tfs if any. */
  private fixedBlock(
    docs: ArrayLike<number>,
    tfs: ArrayLike<number>,
    start: number,
    end: number,
    maxBody: number,
    maxContext: number,
  ): void {
    const out = this.postings;
    out.align(4);
    this.offset.push(out.length);
    const first = docs[start] as number;
    const span = (docs[end - 1] as number) - first;
    const slotLog = span < 0x100 ? 0 : span < 0x10000 ? 1 : 2;
    const slotWidth = 1 << slotLog;
    const bodyWidth = maxBody < 0x100 ? 1 : 2;
    const contextWidth = maxContext === 0 ? 0 : maxContext < 0x100 ? 1 : 2;
    let withContext = 0;
    for (let i = start; i < end; i++) out.fixed((docs[i] as number) - first, slotWidth);
    out.align(bodyWidth);
    for (let i = start; i < end; i++) {
      const packed = tfs[i] as number;
      if (packed >>> 16 > 0) withContext++;
      // A posting with a context tf has its tfs in the sparse arrays below; 0 here (no posting has no tf at all).
      out.fixed(packed >>> 16 > 0 ? 0 : packed & 0xffff, bodyWidth);
    }
    if (withContext > 0) {
      for (let i = start; i < end; i++) if ((tfs[i] as number) >>> 16 > 0) out.fixed(i - start, 1);
      out.align(bodyWidth);
      for (let i = start; i < end; i++) {
        const packed = tfs[i] as number;
        if (packed >>> 16 > 0) out.fixed(packed & 0xffff, bodyWidth);
      }
      out.align(contextWidth);
      for (let i = start; i < end; i++) {
        const packed = tfs[i] as number;
        if (packed >>> 16 > 0) out.fixed(packed >>> 16, contextWidth);
      }
    }
    this.firstDoc.push(first);
    this.meta.push(
      ((end - start) | (slotLog << 8) | (bodyWidth << 10) | (contextWidth << 12) | (withContext << 16)) >>> 0,
    );
  }

  sections(): Record<string, Uint8Array> {
    this.blockStart.push(this.lastDoc.length);
    if (this.version === 3) this.postings.align(4);
    this.offset.push(this.postings.length);
    const termOffsets = new Uint32Array(this.termBytes.length + 1);
    let total = 0;
    this.termBytes.forEach((term, i) => {
      termOffsets[i] = total;
      total += term.length;
    });
    termOffsets[this.termBytes.length] = total;
    const bytes = (array: Uint32Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    return {
      termBlob: Buffer.concat(this.termBytes),
      termOffsets: bytes(termOffsets),
      termDf: bytes(this.df.view()),
      termBlockStart: bytes(this.blockStart.view()),
      blockLastDoc: bytes(this.lastDoc.view()),
      ...(this.version === 3 ? { blockFirstDoc: bytes(this.firstDoc.view()), blockMeta: bytes(this.meta.view()) } : {}),
      blockOffset: bytes(this.offset.view()),
      blockMaxTfBody: bytes(this.maxTfBody.view()),
      blockMinLenBody: bytes(this.minLenBody.view()),
      blockMaxTfContext: bytes(this.maxTfContext.view()),
      blockMinLenContext: bytes(this.minLenContext.view()),
      postings: this.postings.view(),
    };
  }

  get termCount(): number {
    return this.termBytes.length;
  }

  get blockCount(): number {
    return this.lastDoc.length;
  }
}

/** Per-chunk columns of a segment (everything but postings and records). */
export interface SegmentColumns {
  chunkIds: string[];
  bodyLength: Uint32Array;
  contextLength: Uint32Array;
  /** Index into attributeSets. */
  attributeRef: Uint32Array;
  hasVector: Uint8Array;
  attributeSets: AttributeSet[];
  totalBody: number;
  totalContext: number;
}

export interface EncodedSegment {
  idx: Buffer;
  /** The `.docs` file: the chunk records in order, written as they are (never concatenated in memory). */
  docs: readonly Uint8Array[];
}

/** Assembles the .idx file from columns, record offsets and the encoder's sections. */
export function assembleSegment(
  columns: SegmentColumns,
  recordOffsets: Float64Array,
  records: readonly Uint8Array[],
  encoder: PostingsEncoder,
): EncodedSegment {
  const u8 = (array: Uint32Array | Float64Array | Uint8Array) =>
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const parts: Record<string, Uint8Array> = {
    bodyLength: u8(columns.bodyLength),
    contextLength: u8(columns.contextLength),
    attributeRef: u8(columns.attributeRef),
    hasVector: columns.hasVector,
    recordOffsets: u8(recordOffsets),
    attributeSets: Buffer.from(JSON.stringify(columns.attributeSets)),
    chunkIds: Buffer.from(JSON.stringify(columns.chunkIds)),
  };
  const idx = assembleFile(
    { docs: columns.chunkIds.length, totalBody: columns.totalBody, totalContext: columns.totalContext },
    parts,
    encoder,
  );
  return { idx, docs: records };
}

/** The sections of a segment that do not depend on the postings layout (copied as they are by transcodeSegment). */
const COLUMN_SECTIONS = [
  'bodyLength',
  'contextLength',
  'attributeRef',
  'hasVector',
  'recordOffsets',
  'attributeSets',
  'chunkIds',
] as const;

function assembleFile(
  counts: Pick<Header, 'docs' | 'totalBody' | 'totalContext'>,
  columnParts: Record<string, Uint8Array>,
  encoder: PostingsEncoder,
): Buffer {
  const parts: Record<string, Uint8Array> = { ...columnParts, ...encoder.sections() };
  const sections: Record<string, [number, number]> = {};
  let offset = 0;
  for (const [name, bytes] of Object.entries(parts)) {
    sections[name] = [offset, bytes.length];
    offset += Math.ceil(bytes.length / 8) * 8;
  }
  const header: Header = {
    version: encoder.version,
    docs: counts.docs,
    terms: encoder.termCount,
    blocks: encoder.blockCount,
    totalBody: counts.totalBody,
    totalContext: counts.totalContext,
    sections,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const prefix = Math.ceil((8 + headerBytes.length) / 8) * 8;
  const idx = Buffer.alloc(prefix + offset);
  idx.write(MAGIC[encoder.version], 0, 'latin1');
  idx.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(idx, 8);
  for (const [name, bytes] of Object.entries(parts)) {
    const at = sections[name]?.[0] ?? 0;
    idx.set(bytes, prefix + at);
  }
  return idx;
}

/**
 * The same segment (same chunks, slots, terms and postings) with its postings in the layout of `version`: how a
 * segment of an older version is upgraded without reading its records (the `.docs` file stays valid as it is).
 * In time slices, one per term.
 */
export async function transcodeSegment(
  idx: Buffer,
  version: SegmentVersion,
  slice: () => Promise<void> | undefined = createTimeSlicer(),
): Promise<Buffer> {
  const reader = SegmentReader.shared('transcode', idx);
  const encoder = new PostingsEncoder(reader.bodyLength, reader.contextLength, version);
  let docs = new Uint32Array(1024);
  let tfs = new Uint32Array(1024);
  const cursor = new PostingCursor(reader, 0);
  for (let term = 0; term < reader.termDf.length; term++) {
    await slice();
    cursor.reset(reader, term);
    let count = 0;
    if (cursor.start()) {
      while (cursor.doc !== 0x7fffffff) {
        if (count === docs.length) {
          const grownDocs = new Uint32Array(count * 2);
          grownDocs.set(docs);
          docs = grownDocs;
          const grownTfs = new Uint32Array(count * 2);
          grownTfs.set(tfs);
          tfs = grownTfs;
        }
        docs[count] = cursor.doc;
        tfs[count++] = (cursor.tfBody | (cursor.tfContext << 16)) >>> 0;
        cursor.next();
      }
    }
    encoder.addTerm(Buffer.from(reader.termAt(term)), docs, tfs, count);
  }
  await slice();
  const columns: Record<string, Uint8Array> = {};
  for (const name of COLUMN_SECTIONS) columns[name] = reader.section(name);
  return assembleFile(
    { docs: reader.docs, totalBody: reader.totalBody, totalContext: reader.totalContext },
    columns,
    encoder,
  );
}

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/**
 * Builds a fresh segment from analysed chunks (in slot order). Runs in time slices (a 12k-chunk batch is most of a
 * second of work): `slice()` is awaited per chunk and per term, so waiting requests get a turn every few ms. The
 * inputs must not change meanwhile (the store's writes are serialised; it builds from its own copies).
 */
export async function encodeSegment(
  docs: readonly SegmentDoc[],
  slice: () => Promise<void> | undefined = createTimeSlicer(),
): Promise<EncodedSegment> {
  const n = docs.length;
  const columns: SegmentColumns = {
    chunkIds: [],
    bodyLength: new Uint32Array(n),
    contextLength: new Uint32Array(n),
    attributeRef: new Uint32Array(n),
    hasVector: new Uint8Array(n),
    attributeSets: [],
    totalBody: 0,
    totalContext: 0,
  };
  const attributeIndex = new Map<string, number>();
  const postings = new Map<string, { docs: number[]; tfs: number[] }>();
  const recordOffsets = new Float64Array(n + 1);
  const recordBuffers: Buffer[] = [];
  let recordBytes = 0;
  for (let i = 0; i < n; i++) {
    await slice();
    const doc = docs[i] as SegmentDoc;
    const { record } = doc;
    columns.chunkIds.push(record.chunkId);
    columns.bodyLength[i] = doc.bodyTerms.length;
    columns.contextLength[i] = doc.contextTerms.length;
    columns.totalBody += doc.bodyTerms.length;
    columns.totalContext += doc.contextTerms.length;
    columns.hasVector[i] = record.embeddingModel === null ? 0 : 1;
    const key = attributeKey(record);
    let ref = attributeIndex.get(key);
    if (ref === undefined) {
      ref = columns.attributeSets.length;
      attributeIndex.set(key, ref);
      columns.attributeSets.push(attributesOf(record));
    }
    columns.attributeRef[i] = ref;
    const bytes = Buffer.from(JSON.stringify(record));
    recordOffsets[i] = recordBytes;
    recordBytes += bytes.length;
    recordBuffers.push(bytes);
    const body = countTerms(doc.markerTerms ? [...doc.bodyTerms, ...doc.markerTerms] : doc.bodyTerms);
    const context = countTerms(doc.contextTerms);
    const add = (term: string, packed: number) => {
      let list = postings.get(term);
      if (!list) {
        list = { docs: [], tfs: [] };
        postings.set(term, list);
      }
      list.docs.push(i);
      list.tfs.push(packed);
    };
    for (const [term, tf] of body)
      add(term, (Math.min(tf, 0xffff) | (Math.min(context.get(term) ?? 0, 0xffff) << 16)) >>> 0);
    for (const [term, tf] of context) if (!body.has(term)) add(term, (Math.min(tf, 0xffff) << 16) >>> 0);
  }
  recordOffsets[n] = recordBytes;
  const encoder = new PostingsEncoder(columns.bodyLength, columns.contextLength);
  const terms = [...postings.keys()].map((term) => ({ term, bytes: Buffer.from(term) }));
  await slice();
  terms.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  for (const { term, bytes } of terms) {
    await slice();
    const list = postings.get(term);
    if (list) encoder.addTerm(bytes, list.docs, list.tfs, list.docs.length);
  }
  await slice();
  return assembleSegment(columns, recordOffsets, recordBuffers, encoder);
}

export function checksum(bytes: Uint8Array): number {
  return crc32(bytes) >>> 0;
}

/**
 * Reads a file into a SharedArrayBuffer: the same bytes can then be handed to worker threads without a copy
 * (postMessage shares a SharedArrayBuffer), so search workers score the postings the owner loaded once.
 */
function readShared(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.from(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, size - at, at);
      if (read === 0) throw new Error(`${file}: file shrank while being read`);
      at += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** A Uint32Array over a section: a view of the file's bytes when aligned (no copy), else a copy. */
function u32(buffer: Buffer, section: [number, number] | undefined, base: number): Uint32Array {
  if (!section) throw new Error('segment: missing section');
  const offset = buffer.byteOffset + base + section[0];
  if (offset % 4 === 0) return new Uint32Array(buffer.buffer, offset, section[1] / 4);
  const out = new Uint32Array(section[1] / 4);
  new Uint8Array(out.buffer).set(buffer.subarray(base + section[0], base + section[0] + section[1]));
  return out;
}

/** A loaded segment: postings and dictionary in memory, records read from the .docs file on demand. */
export class SegmentReader {
  /** The postings layout of the file (SEGMENT_VERSION, or 2: varints). */
  readonly version: SegmentVersion;
  readonly docs: number;
  readonly totalBody: number;
  readonly totalContext: number;
  /** Chunk ids: kept as JSON bytes until first needed (a hit, a write), then parsed once. */
  private chunkIdBytes: Buffer | null;
  private chunkIds: string[] | null = null;
  readonly bodyLength: Uint32Array;
  readonly contextLength: Uint32Array;
  readonly attributeRef: Uint32Array;
  readonly hasVector: Uint8Array;
  /** Attribute sets: kept as JSON bytes until first needed (a filter, a hit's document, a write), then parsed once. */
  private attributeSetBytes: Buffer | null;
  private parsedAttributeSets: AttributeSet[] | null = null;
  /** Length of the attribute sets' JSON (what a parsed copy costs, roughly, for the memory budget). */
  readonly attributeSetsJsonBytes: number;
  readonly termBlob: Buffer;
  readonly termOffsets: Uint32Array;
  readonly termDf: Uint32Array;
  readonly termBlockStart: Uint32Array;
  readonly blockLastDoc: Uint32Array;
  /** Version 3: each block's first doc and layout word (empty for version 2). */
  readonly blockFirstDoc: Uint32Array;
  readonly blockMeta: Uint32Array;
  readonly blockOffset: Uint32Array;
  readonly blockMaxTfBody: Uint32Array;
  readonly blockMinLenBody: Uint32Array;
  readonly blockMaxTfContext: Uint32Array;
  readonly blockMinLenContext: Uint32Array;
  readonly postings: Uint8Array;
  /** The postings bytes as 16- and 32-bit words (version 3 reads its 2- and 4-byte fields through them). */
  readonly postings16: Uint16Array;
  readonly postings32: Uint32Array;
  private readonly sectionOf: (key: string) => Buffer;
  private readonly recordOffsets: Float64Array;
  private readonly fileBytes: number;
  private fd: number | null;

  private constructor(
    readonly name: string,
    /** The whole .idx file, in a SharedArrayBuffer when opened from disk (search workers map the same bytes). */
    readonly bytes: Buffer,
    docsPath: string | null,
  ) {
    const idx = bytes;
    const magic = idx.toString('latin1', 0, 4);
    const version = magic === MAGIC[3] ? 3 : magic === MAGIC[2] ? 2 : null;
    if (version === null) throw new Error(`segment ${name}: bad magic`);
    this.version = version;
    const headerLength = idx.readUInt32LE(4);
    const header = JSON.parse(idx.toString('utf8', 8, 8 + headerLength)) as Header;
    if (header.version !== version) throw new Error(`segment ${name}: header version ${header.version} != ${magic}`);
    const base = Math.ceil((8 + headerLength) / 8) * 8;
    const s = header.sections;
    const slice = (key: string) => {
      const section = s[key];
      if (!section) throw new Error(`segment ${name}: missing ${key}`);
      return idx.subarray(base + section[0], base + section[0] + section[1]);
    };
    this.sectionOf = slice;
    this.docs = header.docs;
    this.fileBytes = idx.byteLength;
    this.totalBody = header.totalBody;
    this.totalContext = header.totalContext;
    this.bodyLength = u32(idx, s.bodyLength, base);
    this.contextLength = u32(idx, s.contextLength, base);
    this.attributeRef = u32(idx, s.attributeRef, base);
    // Sections are views of the .idx bytes read once (8-byte aligned in the file), not copies: the file is
    // nearly all postings and columns that stay in memory anyway.
    this.hasVector = slice('hasVector');
    const offsets = slice('recordOffsets');
    if (offsets.byteOffset % 8 === 0)
      this.recordOffsets = new Float64Array(offsets.buffer, offsets.byteOffset, offsets.length / 8);
    else {
      this.recordOffsets = new Float64Array(offsets.length / 8);
      new Uint8Array(this.recordOffsets.buffer).set(offsets);
    }
    this.attributeSetBytes = slice('attributeSets');
    this.attributeSetsJsonBytes = this.attributeSetBytes.length;
    this.chunkIdBytes = slice('chunkIds');
    this.termBlob = slice('termBlob');
    this.termOffsets = u32(idx, s.termOffsets, base);
    this.termDf = u32(idx, s.termDf, base);
    this.termBlockStart = u32(idx, s.termBlockStart, base);
    this.blockLastDoc = u32(idx, s.blockLastDoc, base);
    this.blockFirstDoc = version === 3 ? u32(idx, s.blockFirstDoc, base) : new Uint32Array(0);
    this.blockMeta = version === 3 ? u32(idx, s.blockMeta, base) : new Uint32Array(0);
    this.blockOffset = u32(idx, s.blockOffset, base);
    this.blockMaxTfBody = u32(idx, s.blockMaxTfBody, base);
    this.blockMinLenBody = u32(idx, s.blockMinLenBody, base);
    this.blockMaxTfContext = u32(idx, s.blockMaxTfContext, base);
    this.blockMinLenContext = u32(idx, s.blockMinLenContext, base);
    let postings: Uint8Array = slice('postings');
    if (postings.byteOffset % 4 !== 0) {
      // Sections are 8-byte aligned in the file; only bytes placed at an odd address need the copy.
      const copy = new Uint8Array(new SharedArrayBuffer(postings.length + 4));
      copy.set(postings);
      postings = copy.subarray(0, postings.length);
    }
    this.postings = postings;
    this.postings16 = new Uint16Array(postings.buffer, postings.byteOffset, postings.length >>> 1);
    this.postings32 = new Uint32Array(postings.buffer, postings.byteOffset, postings.length >>> 2);
    if (docsPath === null) {
      // Postings only (a search worker): no doc store.
      this.fd = null;
      return;
    }
    this.fd = openSync(docsPath, 'r');
    const size = fstatSync(this.fd).size;
    if (size !== this.recordOffsets[this.docs]) {
      closeSync(this.fd);
      this.fd = null;
      throw new Error(`segment ${name}: doc store has ${size} bytes, expected ${this.recordOffsets[this.docs]}`);
    }
  }

  /** Opens a segment, verifying the .idx checksum recorded in the manifest. */
  static open(name: string, idxPath: string, docsPath: string, expectedChecksum: number): SegmentReader {
    const idx = readShared(idxPath);
    const actual = checksum(idx);
    if (actual !== expectedChecksum) throw new Error(`segment ${name}: checksum ${actual} != ${expectedChecksum}`);
    return new SegmentReader(name, idx, docsPath);
  }

  /**
   * A postings-only reader over bytes another thread loaded (and verified): what a search worker scores with.
   * Same sections as `open` gives, as views of the same memory; no doc store (records are read by the owner).
   */
  static shared(name: string, bytes: Uint8Array): SegmentReader {
    return new SegmentReader(name, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), null);
  }

  /** The raw bytes of a section (a view of the file). */
  section(key: string): Buffer {
    return this.sectionOf(key);
  }

  /** The filterable attribute sets (parsed on first use). */
  get attributeSets(): AttributeSet[] {
    if (!this.parsedAttributeSets) {
      this.parsedAttributeSets = JSON.parse((this.attributeSetBytes as Buffer).toString('utf8')) as AttributeSet[];
      this.attributeSetBytes = null;
    }
    return this.parsedAttributeSets;
  }

  /** Bytes this segment keeps in memory (postings, dictionary, columns), for the memory budget. */
  get memoryBytes(): number {
    // The .idx bytes (postings, dictionary, columns are views of them) plus the parsed chunk ids once used.
    return this.fileBytes + this.docs * 80;
  }

  chunkIdAt(doc: number): string {
    if (!this.chunkIds) {
      this.chunkIds = JSON.parse((this.chunkIdBytes as Buffer).toString('utf8')) as string[];
      this.chunkIdBytes = null;
    }
    return this.chunkIds[doc] as string;
  }

  /** Index of a term in the dictionary, or -1 (binary search over byte order). */
  findTerm(term: Uint8Array): number {
    const blob = this.termBlob;
    const offsets = this.termOffsets;
    let lo = 0;
    let hi = this.termDf.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = compareBytes(term, blob, offsets[mid] as number, offsets[mid + 1] as number);
      if (cmp === 0) return mid;
      if (cmp > 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  termAt(index: number): Buffer {
    return this.termBlob.subarray(this.termOffsets[index] as number, this.termOffsets[index + 1] as number);
  }

  /** The raw JSON record of a chunk (synchronous pread). */
  readRecord(doc: number): StoredChunk {
    if (this.fd === null) throw new Error(`segment ${this.name} is closed`);
    const start = this.recordOffsets[doc] as number;
    const length = (this.recordOffsets[doc + 1] as number) - start;
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.fd, buffer, 0, length, start);
    return JSON.parse(buffer.toString('utf8')) as StoredChunk;
  }

  /** Raw record bytes (for merges). */
  readRecordBytes(doc: number): Buffer {
    if (this.fd === null) throw new Error(`segment ${this.name} is closed`);
    const start = this.recordOffsets[doc] as number;
    const length = (this.recordOffsets[doc + 1] as number) - start;
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.fd, buffer, 0, length, start);
    return buffer;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Decodes a term's postings block by block; `advance(target)` skips whole blocks by their last doc. */
export class PostingCursor {
  doc = -1;
  tfBody = 0;
  tfContext = 0;
  private block = 0;
  private firstBlock = 0;
  private endBlock = 0;
  /** The decoded block: docs, tfs, postings in it, current position. */
  readonly docs = new Int32Array(BLOCK_SIZE);
  readonly bodyTfs = new Uint32Array(BLOCK_SIZE);
  readonly contextTfs = new Uint32Array(BLOCK_SIZE);
  count = 0;
  position = 0;

  constructor(
    private segment: SegmentReader,
    term: number,
  ) {
    this.reset(segment, term);
  }

  /** Points the cursor at another term (of any segment) without allocating; call start() next. */
  reset(segment: SegmentReader, term: number): this {
    this.segment = segment;
    this.firstBlock = segment.termBlockStart[term] as number;
    this.block = this.firstBlock - 1;
    this.endBlock = segment.termBlockStart[term + 1] as number;
    this.doc = -1;
    this.count = 0;
    this.position = 0;
    return this;
  }

  /** Moves to the first posting; false when none. */
  start(): boolean {
    return this.nextBlock() && this.load();
  }

  /** Moves to the next posting; sets doc = Infinity-like (0x7fffffff) at the end. */
  next(): void {
    if (++this.position < this.count) {
      this.load();
      return;
    }
    if (!this.nextBlock()) {
      this.doc = 0x7fffffff;
      return;
    }
    this.load();
  }

  /** Moves to the first posting with doc >= target. */
  advance(target: number): void {
    if (this.doc >= target) return;
    const last = this.segment.blockLastDoc;
    if ((last[this.block] as number) < target) {
      let block = this.block + 1;
      while (block < this.endBlock && (last[block] as number) < target) block++;
      if (block >= this.endBlock) {
        this.block = this.endBlock;
        this.doc = 0x7fffffff;
        return;
      }
      this.block = block - 1;
      this.nextBlock();
    }
    while (this.position < this.count && (this.docs[this.position] as number) < target) this.position++;
    this.load();
  }

  private load(): boolean {
    this.doc = this.docs[this.position] as number;
    this.tfBody = this.bodyTfs[this.position] as number;
    this.tfContext = this.contextTfs[this.position] as number;
    return true;
  }

  private nextBlock(): boolean {
    this.block++;
    if (this.block >= this.endBlock) return false;
    const segment = this.segment;
    if (segment.version === 3) return this.fixedBlock();
    const bytes = segment.postings;
    let at = segment.blockOffset[this.block] as number;
    const end = segment.blockOffset[this.block + 1] as number;
    let doc = this.block > this.firstBlock ? (segment.blockLastDoc[this.block - 1] as number) : 0;
    let n = 0;
    while (at < end) {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = bytes[at++] as number;
        value |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      doc += value;
      value = 0;
      shift = 0;
      do {
        byte = bytes[at++] as number;
        value |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      this.docs[n] = doc;
      this.bodyTfs[n] = value >>> 1;
      if (value & 1) {
        let tfContext = 0;
        shift = 0;
        do {
          byte = bytes[at++] as number;
          tfContext |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte & 0x80);
        this.contextTfs[n] = tfContext;
      } else {
        this.contextTfs[n] = 0;
      }
      n++;
    }
    this.count = n;
    this.position = 0;
    return n > 0;
  }

  /** Decodes a block of the fixed-width layout (version 3). */
  private fixedBlock(): boolean {
    const segment = this.segment;
    const layout = blockLayout(segment.blockMeta[this.block] as number, segment.blockOffset[this.block] as number);
    const first = segment.blockFirstDoc[this.block] as number;
    const n = layout.count;
    for (let i = 0; i < n; i++) {
      this.docs[i] = first + readFixed(segment, layout.slotWidth, layout.slotAt + i);
      this.bodyTfs[i] = readFixed(segment, layout.bodyWidth, layout.bodyAt + i);
      this.contextTfs[i] = 0;
    }
    for (let j = 0; j < layout.contextCount; j++) {
      const i = segment.postings[layout.contextIndexAt + j] as number;
      this.bodyTfs[i] = readFixed(segment, layout.bodyWidth, layout.contextBodyAt + j);
      this.contextTfs[i] = readFixed(segment, layout.contextWidth, layout.contextAt + j);
    }
    this.count = n;
    this.position = 0;
    return n > 0;
  }
}

/**
 * Where a version-3 block's arrays are: widths in bytes, positions in elements of that width. The postings with a
 * context tf (contextCount of them) have 0 in the dense body tfs and their index in the block, body tf and
 * context tf in three sparse arrays.
 */
export interface BlockLayout {
  count: number;
  slotWidth: number;
  slotAt: number;
  bodyWidth: number;
  bodyAt: number;
  contextCount: number;
  /** Byte position of the sparse postings' indexes in the block. */
  contextIndexAt: number;
  contextBodyAt: number;
  contextWidth: number;
  contextAt: number;
}

/** Decodes a version-3 block's layout word (blockMeta) at its byte offset. */
export function blockLayout(meta: number, offset: number, into?: BlockLayout): BlockLayout {
  const out = into ?? {
    count: 0,
    slotWidth: 1,
    slotAt: 0,
    bodyWidth: 1,
    bodyAt: 0,
    contextCount: 0,
    contextIndexAt: 0,
    contextBodyAt: 0,
    contextWidth: 0,
    contextAt: 0,
  };
  const count = meta & 0xff;
  const slotWidth = 1 << ((meta >>> 8) & 3);
  const bodyWidth = (meta >>> 10) & 3 || 1;
  const contextWidth = (meta >>> 12) & 3;
  const contextCount = (meta >>> 16) & 0xff;
  const bodyByte = alignUp(offset + count * slotWidth, bodyWidth);
  const indexByte = bodyByte + count * bodyWidth;
  const contextBodyByte = alignUp(indexByte + contextCount, bodyWidth);
  const contextByte = alignUp(contextBodyByte + contextCount * bodyWidth, contextWidth || 1);
  out.count = count;
  out.slotWidth = slotWidth;
  out.slotAt = offset / slotWidth;
  out.bodyWidth = bodyWidth;
  out.bodyAt = bodyByte / bodyWidth;
  out.contextCount = contextCount;
  out.contextIndexAt = indexByte;
  out.contextBodyAt = contextBodyByte / bodyWidth;
  out.contextWidth = contextWidth;
  out.contextAt = contextWidth === 0 ? 0 : contextByte / contextWidth;
  return out;
}

function alignUp(value: number, width: number): number {
  return Math.ceil(value / width) * width;
}

/** Element `at` of the postings read as `width`-byte words. */
function readFixed(segment: SegmentReader, width: number, at: number): number {
  return width === 1
    ? (segment.postings[at] as number)
    : width === 2
      ? (segment.postings16[at] as number)
      : (segment.postings32[at] as number);
}

/**
 * Byte order of `term` against blob[start, end) (negative, 0, positive), as Buffer.compare orders them: unsigned
 * bytes, a proper prefix first. In JS: the terms are a few bytes long, and Buffer.compare's argument checks and
 * native call per step of findTerm's binary search cost more than the comparison (docs/benchmarks-retrieval.md).
 */
export function compareBytes(term: Uint8Array, blob: Uint8Array, start: number, end: number): number {
  const length = end - start;
  const n = Math.min(term.length, length);
  for (let i = 0; i < n; i++) {
    const diff = (term[i] as number) - (blob[start + i] as number);
    if (diff !== 0) return diff;
  }
  return term.length - length;
}
