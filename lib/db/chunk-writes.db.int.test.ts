import { beforeAll, describe, expect, it } from 'vitest';
import {
  listChunkIds,
  listDocumentUnits,
  replaceDocumentPagesAndChunks,
  type StoredChunkInput,
  WRITE_BATCH,
} from '@/lib/db/chunks';
import { getDb } from '@/lib/db/client';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { PAGE_PART_CHARS } from '@/lib/db/page-parts';
import { startGapMeter } from '@/test/event-loop-gaps';
import { createTestDocument, createTestUser } from '@/test/factories';

/**
 * Issue 14: storing a large document's chunks (10k rows) must not stall other requests. Rows go in statements of
 * at most WRITE_BATCH rows with an event-loop turn between statements, outside any long transaction.
 */

const CHUNKS = 10_000;

function chunks(count: number, word: string): StoredChunkInput[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    text: `${word} ${index} `.repeat(60),
    page: 1 + Math.floor(index / 10),
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    unitOrdinal: Math.floor(index / 10),
    charStart: 0,
    charEnd: 600,
    tokenCount: 120,
    ocrConfidence: null,
  }));
}

beforeAll(async () => {
  await ensureDbReady();
});

describe(`storing a large document's chunks on ${process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('writes 10k rows in bounded statements, giving the event loop a turn between them', async () => {
    const user = await createTestUser('bulk-rows');
    const doc = await createTestDocument(user.id, { status: 'PROCESSING' });
    const pages = Array.from({ length: CHUNKS / 10 }, (_, ordinal) => ({
      ordinal,
      page: ordinal + 1,
      sheet: null,
      text: 'p',
    }));
    const first = chunks(CHUNKS, 'first');
    let turns = 0;
    let on = true;
    const count = () => {
      turns++;
      if (on) setImmediate(count);
    };
    setImmediate(count);
    const meter = startGapMeter();
    await replaceDocumentPagesAndChunks({
      documentId: doc.id,
      ownerId: user.id,
      pages,
      chunks: first,
    });
    const { maxGapMs } = meter.stop();
    on = false;
    console.log(`10k chunk rows: longest event-loop gap ${Math.round(maxGapMs)} ms, ${turns} turns`);
    // at least one turn per statement
    expect(turns).toBeGreaterThanOrEqual(CHUNKS / WRITE_BATCH);
    expect(maxGapMs).toBeLessThan(1_000);

    // replacing them again leaves exactly the new rows
    await replaceDocumentPagesAndChunks({
      documentId: doc.id,
      ownerId: user.id,
      pages,
      chunks: chunks(1_234, 'second'),
    });
    expect(await listChunkIds({ ownerId: user.id, documentId: doc.id })).toHaveLength(1_234);
    expect(await getDb().documentPage.count({ where: { documentId: doc.id } })).toBe(pages.length);
    const sample = await getDb().chunk.findFirst({ where: { documentId: doc.id, index: 7 } });
    expect(sample?.text).toMatch(/^second 7 /);
  });

  it('stores a 12 MB unit in parts (short statements) and reads it back whole', async () => {
    const user = await createTestUser('big-unit');
    const doc = await createTestDocument(user.id, { status: 'PROCESSING' });
    const big = `${'lorem ipsum dolor sit amet, '.repeat(430_000)}end é😀`;
    let turns = 0;
    let on = true;
    const count = () => {
      turns++;
      if (on) setImmediate(count);
    };
    setImmediate(count);
    const meter = startGapMeter();
    await replaceDocumentPagesAndChunks({
      documentId: doc.id,
      ownerId: user.id,
      pages: [
        { ordinal: 0, page: null, sheet: null, text: 'before' },
        { ordinal: 1, page: null, sheet: null, text: big },
        { ordinal: 2, page: null, sheet: null, text: 'after' },
      ],
      chunks: chunks(10, 'big'),
    });
    const { maxGapMs } = meter.stop();
    on = false;
    console.log(
      `a ${(big.length / 1e6).toFixed(1)}M-character unit: longest event-loop gap ${Math.round(maxGapMs)} ms`,
    );
    const parts = Math.ceil(big.length / PAGE_PART_CHARS);
    expect(await getDb().documentPage.count({ where: { documentId: doc.id } })).toBe(parts + 2);
    expect(turns).toBeGreaterThanOrEqual(parts);
    const units = await listDocumentUnits({ ownerId: user.id, documentId: doc.id });
    expect(units.map((u) => [u.ordinal, u.text.length])).toEqual([
      [0, 6],
      [1, big.length],
      [2, 5],
    ]);
    expect(units[1]?.text === big).toBe(true);
    // another owner reads nothing of it
    const other = await createTestUser('big-unit-other');
    expect(await listDocumentUnits({ ownerId: other.id, documentId: doc.id })).toEqual([]);
  });
});
