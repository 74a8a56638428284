import { existsSync, readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { createTimeSlicer } from '@/lib/event-loop';
import { ANALYZER_VERSION, analyzeForIndex } from '@/lib/retrieval/analyzer';
import { isTemporary, syncFolder, writeDurable } from '@/lib/retrieval/embedded/durable-files';
import { journalWrite } from '@/lib/retrieval/embedded/generation-journal';
import {
  filterAcceptor,
  lengthNorms,
  type ResolvedTerm,
  type ScoringGeneration,
  scoreTerms,
} from '@/lib/retrieval/embedded/keyword-scoring';
import {
  type AttributeSet,
  assembleSegment,
  checksum,
  type EncodedSegment,
  encodeSegment,
  PostingCursor,
  PostingsEncoder,
  SEGMENT_VERSION,
  type SegmentColumns,
  type SegmentDoc,
  SegmentReader,
  transcodeSegment,
} from '@/lib/retrieval/embedded/keyword-segment';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import {
  ANALYSIS_LANGUAGES,
  type AnalysisLanguage,
  analysisLanguageOf,
  detectLanguage,
} from '@/lib/retrieval/language';
import type { SearchFilters } from '@/lib/retrieval/types';

/**
 * Format of the manifest; a different value (or analyser version) means rebuild. Segment files carry their own
 * postings layout version (keyword-segment.ts): an older one is read as it is and rewritten by upgradeSegment().
 */
const FORMAT = 2;
/** Trailing segments of the same size level merged into one (tiered merging, levels of MERGE_FACTOR x). */
const MERGE_FACTOR = 8;
/** A segment with this share of deleted chunks is rewritten without them. */
const REWRITE_DEAD_RATIO = 0.3;

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  analyzer: z.number(),
  generation: z.number().int(),
  nextSegment: z.number().int(),
  segments: z.array(
    z.object({
      name: z.string().regex(/^seg-\d+$/),
      checksum: z.number().int(),
      tombstones: z.object({ file: z.string(), checksum: z.number().int() }).nullable(),
    }),
  ),
});
type Manifest = z.infer<typeof manifestSchema>;

const tombstoneSchema = z.object({
  deleted: z.array(z.number().int().min(0)),
  deadDf: z.record(z.string(), z.number().int()),
  deadBody: z.number(),
  deadContext: z.number(),
});

/** A pending write, recorded before the table is written, so a crash can be repaired from the table on load. */
export const intentSchema = z.object({
  chunkIds: z.array(z.string()),
  documentIds: z.array(z.string()),
  /** Every chunk of the owner may change (vector column replaced): repair rebuilds the whole index. */
  all: z.boolean().optional(),
});
export type WriteIntent = z.infer<typeof intentSchema>;

interface LiveSegment {
  reader: SegmentReader;
  checksum: number;
  alive: Uint8Array;
  deleted: number;
  deadDf: Map<string, number>;
  deadBody: number;
  deadContext: number;
  tombstones: { file: string; checksum: number } | null;
  base: number;
}

/** Chunk id -> slot and document id -> slots over the live chunks. */
interface IdMaps {
  slotById: Map<string, number>;
  slotsByDocument: Map<string, Set<number>>;
}

export interface Bm25Parameters {
  k1: number;
  bBody: number;
  bContext: number;
  contextWeight: number;
}

export class StaleIndexError extends Error {}

function levelOf(docs: number): number {
  return Math.floor(Math.log(Math.max(docs, 1)) / Math.log(MERGE_FACTOR));
}

/**
 * The body term that marks a chunk analysed with `language` (one per chunk). The analyser never emits a ':',
 * so no query term can match it; its document frequency is the exact count of the owner's live chunks in that
 * language, persisted and kept exact through deletes by the segments themselves (searches read it to know
 * which languages to analyse a query in).
 */
export function languageMarker(language: AnalysisLanguage): string {
  return `lang:${language}`;
}

/**
 * Analyses a chunk for the index (body text, context prefix) in its language. A chunk without one (indexed by a
 * caller that did not detect it, or rebuilt from the table) is detected here, and the record keeps the result, so
 * re-analysing it later (tombstones, attribute rewrites) never detects again.
 */
export function segmentDoc(chunk: StoredChunk): SegmentDoc {
  const record = chunk.language === undefined ? { ...chunk, language: detectLanguage(chunk.text) } : chunk;
  const language = analysisLanguageOf(record.language);
  return {
    record,
    bodyTerms: analyzeForIndex(record.text, language),
    contextTerms: analyzeForIndex(record.contextPrefix, language),
    markerTerms: [languageMarker(language)],
  };
}

/** segmentDoc over many chunks in time slices, yielding to the event loop between slices (analysis is the costly part). */
export async function segmentDocsSliced(records: readonly StoredChunk[]): Promise<SegmentDoc[]> {
  const slice = createTimeSlicer();
  const out: SegmentDoc[] = [];
  for (const record of records) {
    await slice();
    out.push(segmentDoc(record));
  }
  return out;
}

/**
 * Where keyword scoring may run besides the owner's thread (keyword-pool.ts: worker threads sharing the segment
 * bytes). `search` answers null when it cannot take the query (no worker ready, a worker failed twice): the
 * store then scores in its own thread.
 */
export interface KeywordScoringPool {
  /** Whether a query whose term lists hold `postings` postings is worth the hand-off. */
  takes(postings: number): boolean;
  search(
    generation: ScoringGeneration,
    terms: readonly ResolvedTerm[],
    limit: number,
    filters: SearchFilters | undefined,
  ): Promise<ScoredSlot[] | null>;
  /** The generation will never be searched again: workers drop it (and segments no other generation uses). */
  release(generationId: number): void;
  /** Bytes the workers hold for this segment beyond the shared ones (their parsed attribute sets), for the budget. */
  extraBytes(reader: SegmentReader): number;
}

/** What a search's hits are read with: the state it searched, open until the search's callback returns. */
export interface KeywordState {
  chunkIdOf(slot: number): string | undefined;
  record(slot: number): StoredChunk;
}

let nextGenerationId = 1;

/** One term looked up in every segment of a view. */
interface TermEntry {
  /** Live chunks containing the term (deleted chunks excluded). */
  df: number;
  /** Postings stored for the term, deleted chunks' included (what scoring may walk). */
  stored: number;
  /** Segments holding the term (index in the view's segments), and the term's index in each one's dictionary. */
  segments: number[];
  terms: number[];
}

/**
 * One search's term lookups in the committed state it was taken on: each term is looked up once in every segment
 * (a binary search of each dictionary), however often the search asks for it: whether any content word occurs
 * (`documentFrequency`), then the terms' weights and postings (`searchWith`). A search that pins another state
 * (a write committed in between) looks its terms up again there.
 */
export class TermLookup {
  private readonly entries = new Map<string, TermEntry>();

  constructor(readonly view: KeywordView) {}

  /** Live chunks containing the term in the lookup's state. */
  documentFrequency(term: string): number {
    return this.entry(term).df;
  }

  entry(term: string): TermEntry {
    let entry = this.entries.get(term);
    if (!entry) {
      entry = this.view.lookUp(term);
      this.entries.set(term, entry);
    }
    return entry;
  }
}

/**
 * One committed state of a store, never changed once built: its segments (slot bases fixed), liveness and
 * counts. A search pins the view it started on, so it reads its hits from the state it scored even when a write
 * commits meanwhile; the view's segments stay open until it is replaced and no search pins it.
 */
class KeywordView implements KeywordState {
  pins = 0;
  retired = false;
  /** Scoring inputs per BM25 parameters (per-slot norms in shared memory); normally one entry. */
  private readonly generations = new Map<string, ScoringGeneration>();
  /** The analysis languages of the live chunks, once asked (the view never changes). */
  private languageList: readonly AnalysisLanguage[] | undefined;

  constructor(
    readonly segments: readonly LiveSegment[],
    /** Liveness by global slot, in shared memory (workers read it). */
    readonly alive: Uint8Array,
    readonly liveCount: number,
    private readonly totalBody: number,
    private readonly totalContext: number,
  ) {}

  get generationIds(): number[] {
    return [...this.generations.values()].map((generation) => generation.id);
  }

  locate(slot: number): { segment: LiveSegment; local: number } {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.segments[mid] as LiveSegment).base <= slot) lo = mid;
      else hi = mid - 1;
    }
    const segment = this.segments[lo] as LiveSegment;
    return { segment, local: slot - segment.base };
  }

  chunkIdOf(slot: number): string | undefined {
    const { segment, local } = this.locate(slot);
    return segment.alive[local] === 1 ? segment.reader.chunkIdAt(local) : undefined;
  }

  record(slot: number): StoredChunk {
    const { segment, local } = this.locate(slot);
    return segment.reader.readRecord(local);
  }

  /**
   * The analysis languages of the live chunks (those whose marker term has live chunks), computed once per view:
   * every keyword query asks, and looking the markers up in every segment per query cost as much as a term.
   */
  languages(): readonly AnalysisLanguage[] {
    this.languageList ??= ANALYSIS_LANGUAGES.filter((language) => this.documentFrequency(languageMarker(language)) > 0);
    return this.languageList;
  }

  /** Live chunks containing the term (exact: deleted chunks excluded). */
  documentFrequency(term: string): number {
    return this.lookUp(term).df;
  }

  /** The term looked up in every segment (one binary search of each segment's dictionary). */
  lookUp(term: string): TermEntry {
    const bytes = Buffer.from(term);
    const entry: TermEntry = { df: 0, stored: 0, segments: [], terms: [] };
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i] as LiveSegment;
      const index = segment.reader.findTerm(bytes);
      if (index < 0) continue;
      const termDf = segment.reader.termDf[index] as number;
      entry.stored += termDf;
      entry.df += termDf - (segment.deadDf.get(term) ?? 0);
      entry.segments.push(i);
      entry.terms.push(index);
    }
    return entry;
  }

  /**
   * The query's terms with their weights (idf over live chunks x query weight x (k1 + 1)) and where each term's
   * postings are, from `lookup`'s entries (looked up in this view); `postings` counts them (what scoring walks
   * at most).
   */
  resolve(
    query: ReadonlyMap<string, number>,
    k1: number,
    lookup: TermLookup = new TermLookup(this),
  ): { terms: ResolvedTerm[]; postings: number } {
    const terms: ResolvedTerm[] = [];
    let postings = 0;
    for (const [term, queryWeight] of query) {
      if (!(queryWeight > 0)) continue;
      const { df, stored, segments, terms: indices } = lookup.entry(term);
      if (df <= 0) continue;
      const weight = Math.log(1 + (this.liveCount - df + 0.5) / (df + 0.5)) * queryWeight * (k1 + 1);
      postings += stored;
      terms.push({ weight, segments, terms: indices });
    }
    return { terms, postings };
  }

  /** Scoring inputs for these parameters: per-slot length norms over all segments, computed once per view. */
  generation(params: Bm25Parameters): ScoringGeneration {
    const { k1, bBody, bContext, contextWeight } = params;
    const key = `${k1}:${bBody}:${bContext}:${contextWeight}`;
    let generation = this.generations.get(key);
    if (generation) return generation;
    const lengths = {
      bBody,
      bContext,
      contextWeight,
      avgBody: this.totalBody / this.liveCount || 1,
      avgContext: this.totalContext / this.liveCount || 1,
    };
    const { body, context } = lengthNorms(lengths);
    const slots = this.alive.length;
    // Shared memory: the workers read the norms of the generations they are sent without a copy.
    const bodyInverse = new Float32Array(new SharedArrayBuffer(slots * 4));
    const contextFactor = new Float32Array(new SharedArrayBuffer(slots * 4));
    for (const segment of this.segments) {
      const reader = segment.reader;
      for (let local = 0; local < reader.docs; local++) {
        bodyInverse[segment.base + local] = body(reader.bodyLength[local] as number);
        contextFactor[segment.base + local] = context(reader.contextLength[local] as number);
      }
    }
    generation = {
      id: nextGenerationId++,
      readers: this.segments.map((segment) => segment.reader),
      bases: this.segments.map((segment) => segment.base),
      alive: this.alive,
      bodyInverse,
      contextFactor,
      k1,
      lengths,
    };
    this.generations.set(key, generation);
    return generation;
  }
}

/**
 * The persisted keyword index of ONE owner: immutable segments plus per-segment tombstone files, listed by a
 * manifest that is replaced atomically (write-new-then-rename). Every committed state is a complete, checksummed
 * index; a crash mid-write leaves the previous manifest in force (leftover files are removed on the next write).
 * Document frequencies and lengths are exact over live chunks (tombstone files carry what their chunks held).
 */
export class KeywordStore {
  private segments: LiveSegment[] = [];
  private generation = 0;
  private nextSegment = 1;
  /**
   * Chunk id -> slot and document id -> slots, built on first use (a write, get(), a hybrid search), not on load:
   * at 1M chunks they cost a second of CPU that a restart's first keyword search does not need.
   */
  private idMaps: IdMaps | null = null;
  private liveCount = 0;
  private vectorLive = 0;
  private totalBody = 0;
  private totalContext = 0;
  /** The current state as searches see it (pinned by searches in flight). */
  private view = new KeywordView([], new Uint8Array(0), 0, 0, 0);
  /** Views replaced while a search still pinned them. */
  private readonly pinnedViews = new Set<KeywordView>();
  /** How many unreleased views hold each segment reader (closed when none does). */
  private readonly readerViews = new Map<SegmentReader, number>();
  private pool: KeywordScoringPool | null = null;
  /** Set on a store for an owner with nothing on disk yet: its first refresh under the write lock creates it. */
  private createOnWrite = false;
  /** The analyser version of the committed manifest (kept by commits: writes never relabel an older index). */
  private analyzer = ANALYZER_VERSION;
  /** Serves a manifest of another analyser version (while its next generation is built) instead of refusing it. */
  private acceptOtherAnalyzer = false;

  private constructor(readonly dir: string) {}

  /** Opens the store in `dir`. Throws StaleIndexError when there is no usable index (build it from the table). */
  static async open(dir: string): Promise<KeywordStore> {
    await mkdir(dir, { recursive: true });
    const store = new KeywordStore(dir);
    await store.refresh();
    return store;
  }

  /**
   * Opens the store in `dir` even when an older analyser version wrote it (`analyzerVersion` says which), to keep
   * serving while the next generation is built. Writes analyse with the current analyser and keep the manifest's
   * version, so the index stays marked stale until adoptGeneration() replaces it. Throws StaleIndexError when there
   * is no index of this format.
   */
  static async openAnyAnalyzer(dir: string): Promise<KeywordStore> {
    await mkdir(dir, { recursive: true });
    const store = new KeywordStore(dir);
    store.acceptOtherAnalyzer = true;
    await store.refresh();
    return store;
  }

  /** The analyser version the committed index was built with. */
  get analyzerVersion(): number {
    return this.analyzer;
  }

  static manifestPath(dir: string): string {
    return path.join(dir, 'MANIFEST');
  }

  /** Re-reads the manifest if another process committed a newer one (reusing unchanged segments). */
  async refresh(): Promise<void> {
    // Another process may commit (and remove the files of the manifest just read) between reading the manifest
    // and opening its segments: read it again.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.refreshOnce();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 4) throw error;
      }
    }
  }

  private async refreshOnce(): Promise<void> {
    if (this.createOnWrite && !hasManifest(this.dir)) {
      // Still nothing on disk: the first write creates the index.
      await mkdir(this.dir, { recursive: true });
      await this.commit([], this.nextSegment);
      return;
    }
    let raw: string;
    try {
      raw = await readFile(KeywordStore.manifestPath(this.dir), 'utf8');
    } catch {
      throw new StaleIndexError('no keyword index manifest');
    }
    const manifest = manifestSchema.safeParse(JSON.parse(raw));
    if (!manifest.success || (!this.acceptOtherAnalyzer && manifest.data.analyzer !== ANALYZER_VERSION))
      throw new StaleIndexError('keyword index of another format or analyser version');
    this.analyzer = manifest.data.analyzer;
    if (manifest.data.generation === this.generation && this.generation > 0) return;
    const byName = new Map(this.segments.map((segment) => [segment.reader.name, segment]));
    const next: LiveSegment[] = [];
    for (const entry of manifest.data.segments) {
      const existing = byName.get(entry.name);
      const reader =
        existing && existing.checksum === entry.checksum
          ? existing.reader
          : SegmentReader.open(
              entry.name,
              path.join(this.dir, `${entry.name}.idx`),
              path.join(this.dir, `${entry.name}.docs`),
              entry.checksum,
            );
      next.push(this.liveSegment(reader, entry.checksum, entry.tombstones));
    }
    this.adoptSegments(next);
    this.generation = manifest.data.generation;
    this.nextSegment = manifest.data.nextSegment;
  }

  /** An empty store that writes nothing until its first write (an owner nobody has written yet). */
  static empty(dir: string): KeywordStore {
    const store = new KeywordStore(dir);
    store.createOnWrite = true;
    return store;
  }

  /**
   * Commits an empty index (a new owner, or before a rebuild from the table), continuing the generation and
   * segment numbers of any manifest already there so names never collide with files other readers hold open.
   */
  static async create(dir: string): Promise<KeywordStore> {
    await mkdir(dir, { recursive: true });
    const store = new KeywordStore(dir);
    let nextSegment = 1;
    try {
      const previous = z
        .object({ generation: z.number().int(), nextSegment: z.number().int() })
        .parse(JSON.parse(readFileSync(KeywordStore.manifestPath(dir), 'utf8')));
      store.generation = previous.generation;
      nextSegment = previous.nextSegment;
    } catch {
      // No previous manifest, or an unreadable one.
    }
    await store.commit([], nextSegment);
    return store;
  }

  get size(): number {
    return this.liveCount;
  }

  get vectorCount(): number {
    return this.vectorLive;
  }

  get manifestGeneration(): number {
    return this.generation;
  }

  /** Bytes held in memory (postings, dictionaries, per-chunk columns and maps), for the memory budget. */
  get memoryBytes(): number {
    let bytes = this.idMaps ? this.idMaps.slotById.size * 120 : 0;
    for (const segment of this.segments) {
      bytes += segment.reader.memoryBytes + segment.alive.byteLength * 9;
      if (this.pool) bytes += this.pool.extraBytes(segment.reader);
    }
    return bytes;
  }

  /** The analysis languages of the live chunks of the current state (what a query is analysed in). */
  languages(): readonly AnalysisLanguage[] {
    return this.view.languages();
  }

  /** Live chunks containing the term (exact: deleted chunks excluded). */
  documentFrequency(term: string): number {
    return this.view.documentFrequency(term);
  }

  /**
   * A memo of term lookups in the current state, for one search: pass it to `searchWith` after asking it which
   * terms occur, and no term is looked up twice (a write committed in between makes `searchWith` look up anew).
   */
  termLookup(): TermLookup {
    return new TermLookup(this.view);
  }

  /**
   * Lets searches hand scoring to `pool` (worker threads sharing this store's segment bytes) when a query is
   * large enough; without one (or for small queries) they score in this thread.
   */
  setScoringPool(pool: KeywordScoringPool | null): void {
    this.pool = pool;
  }

  chunkIdOf(slot: number): string | undefined {
    const { segment, local } = this.locate(slot);
    return segment.alive[local] === 1 ? segment.reader.chunkIdAt(local) : undefined;
  }

  has(chunkId: string): boolean {
    return this.maps().slotById.has(chunkId);
  }

  slotOf(chunkId: string): number | undefined {
    return this.maps().slotById.get(chunkId);
  }

  chunkIdsOfDocument(documentId: string): string[] {
    const slots = this.maps().slotsByDocument.get(documentId);
    if (!slots) return [];
    return [...slots]
      .sort((a, b) => a - b)
      .map((slot) => {
        const { segment, local } = this.locate(slot);
        return segment.reader.chunkIdAt(local);
      });
  }

  /** The filterable attributes of a live slot. */
  attributes(slot: number): AttributeSet {
    const { segment, local } = this.locate(slot);
    return segment.reader.attributeSets[segment.reader.attributeRef[local] as number] as AttributeSet;
  }

  hasVector(slot: number): boolean {
    const { segment, local } = this.locate(slot);
    return segment.reader.hasVector[local] === 1;
  }

  /** The stored chunk of a live slot, read from the doc store. */
  record(slot: number): StoredChunk {
    const { segment, local } = this.locate(slot);
    return segment.reader.readRecord(local);
  }

  /** All live chunk ids (for rewrites of every chunk). */
  allChunkIds(): string[] {
    return [...this.maps().slotById.keys()];
  }

  /**
   * Applies one write: removes `remove` (and any chunk re-added in `add`), adds `add` as a new segment, then
   * commits a new manifest. The in-memory state changes only after the commit, in one synchronous step.
   */
  async apply(add: readonly SegmentDoc[], remove: Iterable<string>): Promise<void> {
    const slice = createTimeSlicer();
    const removed = new Set<string>();
    const { slotById } = this.maps();
    for (const id of remove) if (slotById.has(id)) removed.add(id);
    for (const doc of add) if (slotById.has(doc.record.chunkId)) removed.add(doc.record.chunkId);
    const entries: Manifest['segments'] = [];
    const tombstoneUpdates = new Map<LiveSegment, number[]>();
    for (const id of removed) {
      const slot = slotById.get(id) as number;
      const { segment, local } = this.locate(slot);
      const list = tombstoneUpdates.get(segment) ?? [];
      list.push(local);
      tombstoneUpdates.set(segment, list);
    }
    const newDead = new Map<LiveSegment, { deadDf: Map<string, number>; deadBody: number; deadContext: number }>();
    for (const segment of this.segments) {
      const locals = tombstoneUpdates.get(segment);
      if (!locals) {
        entries.push({ name: segment.reader.name, checksum: segment.checksum, tombstones: segment.tombstones });
        continue;
      }
      const deadDf = new Map(segment.deadDf);
      let deadBody = segment.deadBody;
      let deadContext = segment.deadContext;
      for (const local of locals) {
        await slice();
        const record = segment.reader.readRecord(local);
        const { bodyTerms, contextTerms, markerTerms = [] } = segmentDoc(record);
        for (const term of new Set([...bodyTerms, ...contextTerms, ...markerTerms])) {
          deadDf.set(term, (deadDf.get(term) ?? 0) + 1);
        }
        deadBody += segment.reader.bodyLength[local] as number;
        deadContext += segment.reader.contextLength[local] as number;
      }
      const deleted: number[] = [];
      for (let i = 0; i < segment.alive.length; i++) if (segment.alive[i] === 0) deleted.push(i);
      deleted.push(...locals);
      const bytes = Buffer.from(JSON.stringify({ deleted, deadDf: Object.fromEntries(deadDf), deadBody, deadContext }));
      const file = `${segment.reader.name}.del-${this.generation + 1}`;
      await writeDurable(path.join(this.dir, file), bytes);
      entries.push({
        name: segment.reader.name,
        checksum: segment.checksum,
        tombstones: { file, checksum: checksum(bytes) },
      });
      newDead.set(segment, { deadDf, deadBody, deadContext });
    }
    let nextSegment = this.nextSegment;
    if (add.length > 0) {
      const latest = new Map<string, SegmentDoc>();
      for (const doc of add) latest.set(doc.record.chunkId, doc);
      const name = `seg-${String(nextSegment++).padStart(6, '0')}`;
      const encoded = await encodeSegment([...latest.values()]);
      entries.push({ name, checksum: await this.writeSegment(name, encoded), tombstones: null });
    }
    await this.commit(entries, nextSegment);
  }

  /**
   * Adds `add` as a new segment without looking for chunks already present: for a build from the table, which
   * yields each chunk once. Unlike apply() it never builds the id maps (about 150 bytes per chunk at 1M).
   */
  async appendSegment(add: readonly SegmentDoc[]): Promise<void> {
    if (add.length === 0) return;
    const entries: Manifest['segments'] = this.segments.map((segment) => ({
      name: segment.reader.name,
      checksum: segment.checksum,
      tombstones: segment.tombstones,
    }));
    const name = `seg-${String(this.nextSegment).padStart(6, '0')}`;
    const encoded = await encodeSegment([...add]);
    entries.push({ name, checksum: await this.writeSegment(name, encoded), tombstones: null });
    await this.commit(entries, this.nextSegment + 1);
  }

  /** Whether a committed segment has an older postings layout than SEGMENT_VERSION (see upgradeSegment()). */
  get hasOldSegments(): boolean {
    return this.segments.some((segment) => segment.reader.version !== SEGMENT_VERSION);
  }

  /**
   * Rewrites the first segment of an older postings layout in the current one, in one manifest commit; false when
   * none is left. Only the postings are re-encoded (transcodeSegment: same chunks, slots and terms); the records'
   * `.docs` file is hard-linked under the new segment's name and its tombstones stay as they are. Crash-safe like
   * a merge: both files are durable before the manifest names them, and a crash before the commit leaves the old
   * segment in force (the new files are leftovers cleanUp removes). Call under the owner's write lock.
   */
  async upgradeSegment(): Promise<boolean> {
    const segment = this.segments.find((candidate) => candidate.reader.version !== SEGMENT_VERSION);
    if (!segment) return false;
    const idx = await transcodeSegment(segment.reader.bytes, SEGMENT_VERSION);
    const name = `seg-${String(this.nextSegment).padStart(6, '0')}`;
    await linkFile(path.join(this.dir, `${segment.reader.name}.docs`), path.join(this.dir, `${name}.docs`));
    await writeDurable(path.join(this.dir, `${name}.idx`), idx);
    syncFolder(this.dir);
    // Closed (or the segment replaced) while transcoding: commit nothing; the new files are leftovers.
    if (!this.segments.includes(segment)) return false;
    const entries: Manifest['segments'] = this.segments.map((other) =>
      other === segment
        ? { name, checksum: checksum(idx), tombstones: other.tombstones }
        : { name: other.reader.name, checksum: other.checksum, tombstones: other.tombstones },
    );
    await this.commit(entries, this.nextSegment + 1);
    return true;
  }

  /** Merges per the tiered policy; returns true when it changed anything. */
  async maybeMerge(): Promise<boolean> {
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i] as LiveSegment;
      if (segment.deleted > 0 && segment.deleted >= segment.reader.docs * REWRITE_DEAD_RATIO) {
        await this.merge(i, i + 1);
        return true;
      }
    }
    const n = this.segments.length;
    if (n < MERGE_FACTOR) return false;
    const level = levelOf(this.live(this.segments[n - 1] as LiveSegment));
    let start = n - 1;
    while (start > 0 && levelOf(this.live(this.segments[start - 1] as LiveSegment)) <= level) start--;
    if (n - start >= MERGE_FACTOR) {
      await this.merge(start, n);
      return true;
    }
    return false;
  }

  /**
   * Best live slots for weighted query terms (BM25F, exact scores), best first, ties by lower slot, scored in
   * this thread on the current state (keyword-scoring.ts, maxscore.ts: MaxScore over all segments at once).
   */
  search(
    query: ReadonlyMap<string, number>,
    limit: number,
    params: Bm25Parameters,
    accept?: (slot: number) => boolean,
  ): ScoredSlot[] {
    const view = this.view;
    if (limit <= 0 || view.liveCount === 0 || query.size === 0) return [];
    const { terms } = view.resolve(query, params.k1);
    if (terms.length === 0) return [];
    return scoreTerms(view.generation(params), terms, limit, accept);
  }

  /**
   * Searches the current state (in the pool's workers when it takes the query, else here) and calls `use` with
   * the hits and that state: the hits' slots are read through it, so they name the chunks that were scored even
   * if a write committed while the workers scored. The state's files stay open until `use` returns. A `lookup`
   * taken on the same state (`termLookup()`) answers the terms it already looked up; one taken on an older state is
   * not used.
   */
  async searchWith<T>(
    query: ReadonlyMap<string, number>,
    limit: number,
    params: Bm25Parameters,
    filters: SearchFilters | undefined,
    use: (hits: ScoredSlot[], state: KeywordState) => T,
    lookup?: TermLookup,
  ): Promise<T> {
    const view = this.view;
    view.pins++;
    try {
      let hits: ScoredSlot[] = [];
      if (limit > 0 && view.liveCount > 0 && query.size > 0) {
        const { terms, postings } = view.resolve(query, params.k1, lookup?.view === view ? lookup : undefined);
        if (terms.length > 0) {
          const generation = view.generation(params);
          const pool = this.pool;
          const pooled = pool?.takes(postings) ? await pool.search(generation, terms, limit, filters) : null;
          hits = pooled ?? scoreTerms(generation, terms, limit, filterAcceptor(generation, filters));
        }
      }
      return use(hits, view);
    } finally {
      view.pins--;
      if (view.retired && view.pins === 0 && this.pinnedViews.delete(view)) this.releaseView(view);
    }
  }

  close(): void {
    for (const view of [this.view, ...this.pinnedViews]) for (const id of view.generationIds) this.pool?.release(id);
    for (const reader of this.readerViews.keys()) reader.close();
    this.readerViews.clear();
    this.pinnedViews.clear();
    this.segments = [];
    this.view = new KeywordView([], new Uint8Array(0), 0, 0, 0);
  }

  /** Removes files no manifest references (leftovers of crashed writes or replaced segments). */
  /**
   * Removes the files no manifest entry references (replaced segments, old tombstones, stale temporary files).
   * Asynchronous: unlinking a merged-away segment of 100 MB held the event loop for ~0.3 s when done with
   * unlinkSync. Segment and tombstone names are never reused, so a file unreferenced now stays unreferenced.
   */
  async cleanUp(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    const referenced = new Set<string>(['MANIFEST', 'LOCK', 'PENDING']);
    for (const segment of this.segments) {
      referenced.add(`${segment.reader.name}.idx`);
      referenced.add(`${segment.reader.name}.docs`);
      if (segment.tombstones) referenced.add(segment.tombstones.file);
    }
    for (const name of names) {
      if (referenced.has(name)) continue;
      const file = path.join(this.dir, name);
      try {
        // Another process may be writing a temporary file right now: only old ones are removed.
        if (isTemporary(name) && Date.now() - (await stat(file)).mtimeMs < 10 * 60_000) continue;
        await unlink(file);
      } catch {
        // Gone already.
      }
    }
  }

  /**
   * Makes the segments of `next` (a complete index built in another folder) this store's committed state, in one
   * manifest commit. Their files are hard-linked into this folder under fresh names first, so the other folder stays
   * complete until the commit: a crash before it leaves the previous manifest in force and the next generation
   * ready to be adopted again (the links are removed as leftovers). `next` is closed before the commit so the two
   * generations' postings are never held twice. Call under the owner's write lock.
   */
  async adoptGeneration(next: KeywordStore): Promise<void> {
    const entries: Manifest['segments'] = [];
    let nextSegment = this.nextSegment;
    for (const segment of next.segments) {
      const name = `seg-${String(nextSegment++).padStart(6, '0')}`;
      await linkFile(path.join(next.dir, `${segment.reader.name}.idx`), path.join(this.dir, `${name}.idx`));
      await linkFile(path.join(next.dir, `${segment.reader.name}.docs`), path.join(this.dir, `${name}.docs`));
      let tombstones: LiveSegment['tombstones'] = null;
      if (segment.tombstones) {
        tombstones = { file: `${name}.del-${this.generation + 1}`, checksum: segment.tombstones.checksum };
        await linkFile(path.join(next.dir, segment.tombstones.file), path.join(this.dir, tombstones.file));
      }
      entries.push({ name, checksum: segment.checksum, tombstones });
    }
    syncFolder(this.dir);
    const analyzer = next.analyzer;
    next.close();
    const previous = this.analyzer;
    this.analyzer = analyzer;
    try {
      await this.commit(entries, nextSegment);
    } catch (error) {
      this.analyzer = previous;
      throw error;
    }
    this.acceptOtherAnalyzer = false;
  }

  private live(segment: LiveSegment): number {
    return segment.reader.docs - segment.deleted;
  }

  private locate(slot: number): { segment: LiveSegment; local: number } {
    return this.view.locate(slot);
  }

  /** Makes `next` the state searches see; the previous one is released once no search pins it. */
  private swapView(next: KeywordView): void {
    for (const segment of next.segments)
      this.readerViews.set(segment.reader, (this.readerViews.get(segment.reader) ?? 0) + 1);
    const previous = this.view;
    this.view = next;
    previous.retired = true;
    if (previous.pins > 0) this.pinnedViews.add(previous);
    else this.releaseView(previous);
  }

  /** Drops a view nobody searches any more: its generations leave the workers, readers no view holds are closed. */
  private releaseView(view: KeywordView): void {
    for (const id of view.generationIds) this.pool?.release(id);
    for (const segment of view.segments) {
      const users = (this.readerViews.get(segment.reader) ?? 0) - 1;
      if (users > 0) {
        this.readerViews.set(segment.reader, users);
      } else if (this.readerViews.delete(segment.reader)) {
        segment.reader.close();
      }
    }
  }

  private liveSegment(
    reader: SegmentReader,
    segmentChecksum: number,
    tombstones: { file: string; checksum: number } | null,
  ): LiveSegment {
    const alive = new Uint8Array(reader.docs).fill(1);
    let deleted = 0;
    let deadDf = new Map<string, number>();
    let deadBody = 0;
    let deadContext = 0;
    if (tombstones) {
      const bytes = readFileSync(path.join(this.dir, tombstones.file));
      if (checksum(bytes) !== tombstones.checksum) throw new Error(`tombstones ${tombstones.file}: bad checksum`);
      const parsed = tombstoneSchema.parse(JSON.parse(bytes.toString('utf8')));
      for (const local of parsed.deleted) {
        if (local < reader.docs && alive[local] === 1) {
          alive[local] = 0;
          deleted++;
        }
      }
      deadDf = new Map(Object.entries(parsed.deadDf));
      deadBody = parsed.deadBody;
      deadContext = parsed.deadContext;
    }
    return {
      reader,
      checksum: segmentChecksum,
      alive,
      deleted,
      deadDf,
      deadBody,
      deadContext,
      tombstones,
      base: 0,
    };
  }

  /**
   * Brings the id maps, counters and slot arrays in line with `next` (the segments about to be current).
   * When `next` only adds segments at the end and tombstones in existing ones (every write but a merge), the
   * maps are updated for the changed chunks only; otherwise (a merge renumbers slots) they are rebuilt.
   */
  private adoptSegments(next: LiveSegment[]): void {
    const previous = this.segments;
    const incremental =
      previous.length <= next.length && previous.every((segment, i) => next[i]?.reader === segment.reader);
    this.segments = next;
    // Built maps follow an appended segment or new tombstones; anything else drops them (rebuilt on next use).
    const maps = incremental ? this.idMaps : null;
    this.idMaps = maps;
    let base = 0;
    this.liveCount = 0;
    this.vectorLive = 0;
    for (let i = 0; i < next.length; i++) {
      const segment = next[i] as LiveSegment;
      segment.base = base;
      base += segment.reader.docs;
      const alive = segment.alive;
      const hasVector = segment.reader.hasVector;
      for (let local = 0; local < segment.reader.docs; local++) {
        if (alive[local] !== 1) continue;
        this.liveCount++;
        if (hasVector[local] === 1) this.vectorLive++;
      }
      if (!maps) continue;
      const old = previous[i];
      if (old) {
        for (let local = 0; local < segment.reader.docs; local++) {
          if (old.alive[local] === 1 && alive[local] !== 1) this.unindexDoc(maps, segment, local);
        }
      } else {
        for (let local = 0; local < segment.reader.docs; local++) {
          if (alive[local] === 1) this.indexDoc(maps, segment, local);
        }
      }
    }
    this.totalBody = 0;
    this.totalContext = 0;
    for (const segment of next) {
      this.totalBody += segment.reader.totalBody - segment.deadBody;
      this.totalContext += segment.reader.totalContext - segment.deadContext;
    }
    const aliveAll = new Uint8Array(new SharedArrayBuffer(base));
    for (const segment of next) aliveAll.set(segment.alive, segment.base);
    this.swapView(new KeywordView(next, aliveAll, this.liveCount, this.totalBody, this.totalContext));
  }

  private maps(): IdMaps {
    if (this.idMaps) return this.idMaps;
    const maps = { slotById: new Map<string, number>(), slotsByDocument: new Map<string, Set<number>>() };
    for (const segment of this.segments) {
      for (let local = 0; local < segment.reader.docs; local++) {
        if (segment.alive[local] === 1) this.indexDoc(maps, segment, local);
      }
    }
    this.idMaps = maps;
    return maps;
  }

  private documentOf(segment: LiveSegment, local: number): string {
    const reader = segment.reader;
    return (reader.attributeSets[reader.attributeRef[local] as number] as AttributeSet).documentId;
  }

  private indexDoc(maps: IdMaps, segment: LiveSegment, local: number): void {
    const slot = segment.base + local;
    maps.slotById.set(segment.reader.chunkIdAt(local), slot);
    const documentId = this.documentOf(segment, local);
    let slots = maps.slotsByDocument.get(documentId);
    if (!slots) {
      slots = new Set();
      maps.slotsByDocument.set(documentId, slots);
    }
    slots.add(slot);
  }

  private unindexDoc(maps: IdMaps, segment: LiveSegment, local: number): void {
    const slot = segment.base + local;
    const chunkId = segment.reader.chunkIdAt(local);
    if (maps.slotById.get(chunkId) === slot) maps.slotById.delete(chunkId);
    const documentId = this.documentOf(segment, local);
    const slots = maps.slotsByDocument.get(documentId);
    slots?.delete(slot);
    if (slots?.size === 0) maps.slotsByDocument.delete(documentId);
  }

  private async writeSegment(name: string, encoded: EncodedSegment): Promise<number> {
    await writeDurable(path.join(this.dir, `${name}.docs`), encoded.docs);
    await writeDurable(path.join(this.dir, `${name}.idx`), encoded.idx);
    return checksum(encoded.idx);
  }

  /** Commits a manifest listing `entries`, then swaps the in-memory state to it. */
  private async commit(entries: Manifest['segments'], nextSegment: number): Promise<void> {
    const manifest: Manifest = {
      format: FORMAT,
      analyzer: this.analyzer,
      generation: this.generation + 1,
      nextSegment,
      segments: entries,
    };
    // Open every new segment before the commit: a segment that cannot be read is never committed.
    const byName = new Map(this.segments.map((segment) => [segment.reader.name, segment]));
    const next: LiveSegment[] = [];
    try {
      for (const entry of entries) {
        const existing = byName.get(entry.name);
        const reader =
          existing?.reader ??
          SegmentReader.open(
            entry.name,
            path.join(this.dir, `${entry.name}.idx`),
            path.join(this.dir, `${entry.name}.docs`),
            entry.checksum,
          );
        next.push(this.liveSegment(reader, entry.checksum, entry.tombstones));
      }
    } catch (error) {
      for (const segment of next) if (!byName.has(segment.reader.name)) segment.reader.close();
      throw error;
    }
    await writeDurable(KeywordStore.manifestPath(this.dir), Buffer.from(JSON.stringify(manifest)));
    this.adoptSegments(next);
    this.generation = manifest.generation;
    this.nextSegment = nextSegment;
    await this.cleanUp();
  }

  /** Rewrites segments [from, to) as one segment without their deleted chunks. */
  private async merge(from: number, to: number): Promise<void> {
    // In time slices (merging 100k chunks is seconds of work): the segments read here change only in commit(),
    // which runs after this, and writes are serialised by the caller.
    const slice = createTimeSlicer();
    const group = this.segments.slice(from, to);
    const docs = group.reduce((sum, segment) => sum + this.live(segment), 0);
    const columns: SegmentColumns = {
      chunkIds: [],
      bodyLength: new Uint32Array(docs),
      contextLength: new Uint32Array(docs),
      attributeRef: new Uint32Array(docs),
      hasVector: new Uint8Array(docs),
      attributeSets: [],
      totalBody: 0,
      totalContext: 0,
    };
    const attributeIndex = new Map<string, number>();
    const recordOffsets = new Float64Array(docs + 1);
    const records: Buffer[] = [];
    let recordBytes = 0;
    const remaps: Int32Array[] = [];
    let next = 0;
    for (const segment of group) {
      const reader = segment.reader;
      const remap = new Int32Array(reader.docs).fill(-1);
      const refMap = new Map<number, number>();
      for (let local = 0; local < reader.docs; local++) {
        if (segment.alive[local] !== 1) continue;
        await slice();
        remap[local] = next;
        columns.chunkIds.push(reader.chunkIdAt(local));
        columns.bodyLength[next] = reader.bodyLength[local] as number;
        columns.contextLength[next] = reader.contextLength[local] as number;
        columns.totalBody += reader.bodyLength[local] as number;
        columns.totalContext += reader.contextLength[local] as number;
        columns.hasVector[next] = reader.hasVector[local] as number;
        const oldRef = reader.attributeRef[local] as number;
        let ref = refMap.get(oldRef);
        if (ref === undefined) {
          const set = reader.attributeSets[oldRef] as AttributeSet;
          const key = JSON.stringify(set);
          ref = attributeIndex.get(key);
          if (ref === undefined) {
            ref = columns.attributeSets.length;
            attributeIndex.set(key, ref);
            columns.attributeSets.push(set);
          }
          refMap.set(oldRef, ref);
        }
        columns.attributeRef[next] = ref;
        const bytes = reader.readRecordBytes(local);
        recordOffsets[next] = recordBytes;
        recordBytes += bytes.length;
        records.push(bytes);
        next++;
      }
      remaps.push(remap);
    }
    recordOffsets[docs] = recordBytes;
    const encoder = new PostingsEncoder(columns.bodyLength, columns.contextLength);
    // k-way merge of the sorted dictionaries.
    const heads = group.map(() => 0);
    let mergeCursor: PostingCursor | null = null;
    let outDocs = new Uint32Array(1024);
    let outTfs = new Uint32Array(1024);
    for (;;) {
      await slice();
      let smallest: Buffer | null = null;
      for (let g = 0; g < group.length; g++) {
        const reader = (group[g] as LiveSegment).reader;
        if ((heads[g] as number) >= reader.termDf.length) continue;
        const term = reader.termAt(heads[g] as number);
        if (smallest === null || term.compare(smallest) < 0) smallest = term;
      }
      if (smallest === null) break;
      const term = Buffer.from(smallest);
      let count = 0;
      for (let g = 0; g < group.length; g++) {
        const reader = (group[g] as LiveSegment).reader;
        const head = heads[g] as number;
        if (head >= reader.termDf.length || reader.termAt(head).compare(term) !== 0) continue;
        heads[g] = head + 1;
        const remap = remaps[g] as Int32Array;
        const cursor: PostingCursor = mergeCursor ? mergeCursor.reset(reader, head) : new PostingCursor(reader, head);
        mergeCursor = cursor;
        if (!cursor.start()) continue;
        while (cursor.doc !== 0x7fffffff) {
          const mapped = remap[cursor.doc] as number;
          if (mapped >= 0) {
            if (count === outDocs.length) {
              const grownDocs = new Uint32Array(count * 2);
              grownDocs.set(outDocs);
              outDocs = grownDocs;
              const grownTfs = new Uint32Array(count * 2);
              grownTfs.set(outTfs);
              outTfs = grownTfs;
            }
            outDocs[count] = mapped;
            outTfs[count] = (cursor.tfBody | (cursor.tfContext << 16)) >>> 0;
            count++;
          }
          cursor.next();
        }
      }
      encoder.addTerm(term, outDocs, outTfs, count);
    }
    await slice();
    const encoded = assembleSegment(columns, recordOffsets, records, encoder);
    const name = `seg-${String(this.nextSegment).padStart(6, '0')}`;
    const merged = await this.writeSegment(name, encoded);
    const entries: Manifest['segments'] = [];
    this.segments.forEach((segment, i) => {
      if (i === from) entries.push({ name, checksum: merged, tombstones: null });
      if (i >= from && i < to) return;
      entries.push({ name: segment.reader.name, checksum: segment.checksum, tombstones: segment.tombstones });
    });
    await this.commit(entries, this.nextSegment + 1);
  }
}

/** Hard-links `from` as `to` (replacing a leftover of a crashed attempt); copies where links are refused. */
async function linkFile(from: string, to: string): Promise<void> {
  await unlink(to).catch(() => undefined);
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

/** Whether `dir` holds a keyword index manifest. */
export function hasManifest(dir: string): boolean {
  return existsSync(KeywordStore.manifestPath(dir));
}

/** Records a write about to happen (repaired from the table on the next load if the process dies). */
export async function writeIntent(dir: string, intent: WriteIntent): Promise<void> {
  // While a next generation is built (analyser upgrade), it replays this write too.
  await journalWrite(dir, intent);
  await writeDurable(path.join(dir, 'PENDING'), Buffer.from(JSON.stringify(intent)));
}

export async function clearIntent(dir: string): Promise<void> {
  await unlink(path.join(dir, 'PENDING')).catch(() => undefined);
  syncFolder(dir);
}

export async function readIntent(dir: string): Promise<WriteIntent | null> {
  try {
    return intentSchema.parse(JSON.parse(await readFile(path.join(dir, 'PENDING'), 'utf8')));
  } catch {
    return null;
  }
}
