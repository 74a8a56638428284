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
 * `.idx` layout: "KWS2", u32 header length, JSON header (section offsets), then 8-byte aligned sections.
 * Postings: per term, blocks of BLOCK_SIZE postings; a posting is varint(doc delta), varint(bodyTf << 1 | hasContext)
 * [, varint(contextTf)]. Per block: last doc, byte offset, and the max tf / min length of each field, so a search
 * can bound a term's score in a block without decoding it (MaxScore).
 */

export const BLOCK_SIZE = 128;
const MAGIC = 'KWS2';

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
  version: 2;
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
  private readonly lastDoc = new U32Writer();
  private readonly offset = new U32Writer();
  private readonly maxTfBody = new U32Writer();
  private readonly minLenBody = new U32Writer();
  private readonly maxTfContext = new U32Writer();
  private readonly minLenContext = new U32Writer();

  constructor(
    private readonly bodyLength: Uint32Array,
    private readonly contextLength: Uint32Array,
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
      this.offset.push(this.postings.length);
      let maxB = 0;
      let minLB = 0xffffffff;
      let maxC = 0;
      let minLC = 0xffffffff;
      for (let i = start; i < end; i++) {
        const doc = docs[i] as number;
        const packed = tfs[i] as number;
        const tfBody = packed & 0xffff;
        const tfContext = packed >>> 16;
        this.postings.varint(doc - previous);
        previous = doc;
        this.postings.varint((tfBody << 1) | (tfContext > 0 ? 1 : 0));
        if (tfContext > 0) this.postings.varint(tfContext);
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
      this.lastDoc.push(previous);
      this.maxTfBody.push(maxB);
      this.minLenBody.push(minLB === 0xffffffff ? 0 : minLB);
      this.maxTfContext.push(maxC);
      this.minLenContext.push(minLC === 0xffffffff ? 0 : minLC);
    }
  }

  sections(): Record<string, Uint8Array> {
    this.blockStart.push(this.lastDoc.length);
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
    ...encoder.sections(),
  };
  const sections: Record<string, [number, number]> = {};
  let offset = 0;
  for (const [name, bytes] of Object.entries(parts)) {
    sections[name] = [offset, bytes.length];
    offset += Math.ceil(bytes.length / 8) * 8;
  }
  const header: Header = {
    version: 2,
    docs: columns.chunkIds.length,
    terms: encoder.termCount,
    blocks: encoder.blockCount,
    totalBody: columns.totalBody,
    totalContext: columns.totalContext,
    sections,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const prefix = Math.ceil((8 + headerBytes.length) / 8) * 8;
  const idx = Buffer.alloc(prefix + offset);
  idx.write(MAGIC, 0, 'latin1');
  idx.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(idx, 8);
  for (const [name, bytes] of Object.entries(parts)) {
    const at = sections[name]?.[0] ?? 0;
    idx.set(bytes, prefix + at);
  }
  return { idx, docs: records };
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
  readonly blockOffset: Uint32Array;
  readonly blockMaxTfBody: Uint32Array;
  readonly blockMinLenBody: Uint32Array;
  readonly blockMaxTfContext: Uint32Array;
  readonly blockMinLenContext: Uint32Array;
  readonly postings: Uint8Array;
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
    if (idx.toString('latin1', 0, 4) !== MAGIC) throw new Error(`segment ${name}: bad magic`);
    const headerLength = idx.readUInt32LE(4);
    const header = JSON.parse(idx.toString('utf8', 8, 8 + headerLength)) as Header;
    const base = Math.ceil((8 + headerLength) / 8) * 8;
    const s = header.sections;
    const slice = (key: string) => {
      const section = s[key];
      if (!section) throw new Error(`segment ${name}: missing ${key}`);
      return idx.subarray(base + section[0], base + section[0] + section[1]);
    };
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
    this.blockOffset = u32(idx, s.blockOffset, base);
    this.blockMaxTfBody = u32(idx, s.blockMaxTfBody, base);
    this.blockMinLenBody = u32(idx, s.blockMinLenBody, base);
    this.blockMaxTfContext = u32(idx, s.blockMaxTfContext, base);
    this.blockMinLenContext = u32(idx, s.blockMinLenContext, base);
    this.postings = slice('postings');
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
  findTerm(term: Buffer): number {
    let lo = 0;
    let hi = this.termDf.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = term.compare(this.termBlob, this.termOffsets[mid] as number, this.termOffsets[mid + 1] as number);
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
}
