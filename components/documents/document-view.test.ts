import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocumentSummary } from '@/lib/db/documents';
import { MIME_BY_KIND } from '@/lib/ingest/mime-by-kind';
import {
  chunkLocation,
  clampProgress,
  countByBucket,
  countByStatus,
  describeIndexed,
  fileKind,
  filterDocuments,
  formatBytes,
  formatDate,
  formatTimestamp,
  isFinished,
  librarySummary,
  mergeDocuments,
  newlyFinished,
  percent,
  plural,
  stageLabel,
  statusLabel,
  trackPosition,
  trackStages,
  unitNoun,
  upsertDocument,
} from './document-view';

function doc(overrides: Partial<DocumentSummary> = {}): DocumentSummary {
  return {
    id: 'd1',
    filename: 'report.pdf',
    mime: 'application/pdf',
    size: 1000,
    sha256: 'x',
    status: 'INDEXED',
    stage: 'done',
    progress: 1,
    error: null,
    pageCount: 3,
    chunkCount: 12,
    bucketId: null,
    metadata: { title: null, documentDate: null, tags: [], fields: {} },
    embeddingModel: null,
    vectorsPending: false,
    parentId: null,
    warnings: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    indexedAt: null,
    ...overrides,
  };
}

describe('stages and statuses', () => {
  it.each([
    ['queued', 'Queued'],
    ['parsing', 'Parsing'],
    ['chunking', 'Chunking'],
    ['embedding', 'Embedding'],
    ['indexing', 'Indexing'],
    ['done', 'Indexed'],
    ['failed', 'Failed'],
    ['ocr_pass', 'Ocr pass'],
    ['<script>', 'Script'],
    ['', 'Working'],
  ])('stage %j reads %j', (stage, label) => {
    expect(stageLabel(stage)).toBe(label);
  });

  it('only INDEXED and FAILED are final', () => {
    expect(isFinished({ status: 'INDEXED' })).toBe(true);
    expect(isFinished({ status: 'FAILED' })).toBe(true);
    expect(isFinished({ status: 'PENDING' })).toBe(false);
    expect(isFinished({ status: 'PROCESSING' })).toBe(false);
  });

  it('clamps progress, including garbage', () => {
    expect(clampProgress(Number.NaN)).toBe(0);
    expect(clampProgress(-1)).toBe(0);
    expect(clampProgress(7)).toBe(1);
    expect(percent(0.426)).toBe(43);
    expect(percent(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('filtering and counting', () => {
  const docs = [
    doc({ id: 'a', filename: 'Contract-2024.pdf', status: 'INDEXED', bucketId: 'b1' }),
    doc({ id: 'b', filename: 'notes.md', status: 'FAILED', bucketId: null }),
    doc({ id: 'c', filename: 'minutes.docx', status: 'PROCESSING', bucketId: 'b1' }),
    doc({
      id: 'd',
      filename: 'scan.pdf',
      status: 'PENDING',
      bucketId: 'b2',
      metadata: { title: 'Lease contract', documentDate: null, tags: [], fields: {} },
    }),
  ];

  it('filters by bucket, "none", status and name (case-insensitive, title too)', () => {
    const ids = (f: Parameters<typeof filterDocuments>[1]) => filterDocuments(docs, f).map((d) => d.id);
    expect(ids({ bucket: 'all', status: 'all', name: '' })).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ bucket: { id: 'b1' }, status: 'all', name: '' })).toEqual(['a', 'c']);
    expect(ids({ bucket: 'none', status: 'all', name: '' })).toEqual(['b']);
    expect(ids({ bucket: 'all', status: 'FAILED', name: '' })).toEqual(['b']);
    expect(ids({ bucket: 'all', status: 'all', name: '  CONTRACT ' })).toEqual(['a', 'd']);
    expect(ids({ bucket: { id: 'b1' }, status: 'INDEXED', name: 'contract' })).toEqual(['a']);
    expect(ids({ bucket: { id: 'missing' }, status: 'all', name: '' })).toEqual([]);
  });

  it('counts statuses in the bucket and name scope, ignoring the status filter', () => {
    expect(countByStatus(docs, { bucket: 'all', name: '' })).toEqual({
      all: 4,
      PENDING: 1,
      PROCESSING: 1,
      INDEXED: 1,
      FAILED: 1,
    });
    expect(countByStatus(docs, { bucket: { id: 'b1' }, name: '' })).toEqual({
      all: 2,
      PENDING: 0,
      PROCESSING: 1,
      INDEXED: 1,
      FAILED: 0,
    });
  });

  it('counts per bucket with "none" for unbucketed documents', () => {
    const counts = countByBucket(docs);
    expect(counts.get('b1')).toBe(2);
    expect(counts.get('b2')).toBe(1);
    expect(counts.get('none')).toBe(1);
  });
});

describe('formatting', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1024 * 1.25, '1.3 KB'],
    [35535, '35 KB'],
    [5.4 * 1024 * 1024, '5.4 MB'],
    [100 * 1024 * 1024, '100 MB'],
    [-1, '—'],
    [Number.NaN, '—'],
  ])('%d bytes reads %j', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('describes indexed documents with plurals and leaves unknown counts out', () => {
    expect(describeIndexed({ pageCount: 1, chunkCount: 1 })).toBe('1 page · 1 chunk');
    expect(describeIndexed({ pageCount: 12, chunkCount: 1200 })).toBe('12 pages · 1,200 chunks');
    expect(describeIndexed({ pageCount: null, chunkCount: 4 })).toBe('4 chunks');
    expect(describeIndexed({ pageCount: 3, chunkCount: 4, mime: 'text/markdown' })).toBe('3 sections · 4 chunks');
    expect(describeIndexed({ pageCount: 2, chunkCount: 4, mime: 'text/csv' })).toBe('2 sheets · 4 chunks');
  });

  it('knows file kinds by MIME first, then extension', () => {
    expect(fileKind('application/pdf', 'x.txt')).toBe('pdf');
    expect(fileKind('text/markdown; charset=utf-8', 'x')).toBe('markdown');
    expect(fileKind('', 'Budget.XLSX')).toBe('xlsx');
    expect(fileKind('application/octet-stream', '<img src=x onerror=alert(1)>')).toBe('file');
    // every format the upload reads has its own kind (lib/ingest/sniff.ts's MIME types)
    expect(fileKind('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'x')).toBe('pptx');
    expect(fileKind('message/rfc822', 'x')).toBe('email');
    expect(fileKind('application/vnd.ms-outlook', 'x')).toBe('email');
    expect(fileKind('application/epub+zip', 'x')).toBe('epub');
    expect(fileKind('image/jpeg', 'scan')).toBe('image');
    expect(fileKind('', 'minutes.ODT')).toBe('odt');
    expect(fileKind('application/msword', 'old.doc')).toBe('docx');
    for (const [kind, mime] of Object.entries(MIME_BY_KIND)) expect(fileKind(mime, 'x'), kind).not.toBe('file');
  });

  it('shows ISO dates without shifting the day', () => {
    expect(formatDate('2023-06-20')).toBe('Jun 20, 2023');
    expect(formatDate('not a date')).toBe('not a date');
  });
});

describe('list updates', () => {
  it('keeps unchanged rows as the same objects and takes changed ones', () => {
    const a = doc({ id: 'a' });
    const b = doc({ id: 'b', status: 'PROCESSING', progress: 0.2 });
    const merged = mergeDocuments([a, b], [doc({ id: 'a' }), doc({ id: 'b', status: 'PROCESSING', progress: 0.4 })]);
    expect(merged[0]).toBe(a);
    expect(merged[1]).not.toBe(b);
    expect(merged[1]?.progress).toBe(0.4);
  });

  it('treats a metadata change as a change', () => {
    const a = doc({ id: 'a' });
    const next = doc({ id: 'a', metadata: { title: 'T', documentDate: null, tags: [], fields: {} } });
    expect(mergeDocuments([a], [next])[0]).toBe(next);
  });

  it('drops rows the server no longer has', () => {
    expect(mergeDocuments([doc({ id: 'a' }), doc({ id: 'b' })], [doc({ id: 'b' })]).map((d) => d.id)).toEqual(['b']);
  });

  it('upserts newest first and replaces in place', () => {
    const old = doc({ id: 'old', createdAt: '2024-01-01T00:00:00.000Z' });
    const fresh = doc({ id: 'new', createdAt: '2024-02-01T00:00:00.000Z' });
    expect(upsertDocument([old], fresh).map((d) => d.id)).toEqual(['new', 'old']);
    const replaced = upsertDocument([fresh, old], doc({ id: 'old', status: 'FAILED' }));
    expect(replaced.map((d) => [d.id, d.status])).toEqual([
      ['new', 'INDEXED'],
      ['old', 'FAILED'],
    ]);
  });

  it('reports documents that just finished, not ones that were already final or are new', () => {
    const before = [
      { id: 'a', status: 'PROCESSING' as const },
      { id: 'b', status: 'INDEXED' as const },
      { id: 'c', status: 'PENDING' as const },
    ];
    const after = [
      doc({ id: 'a', status: 'INDEXED' }),
      doc({ id: 'b', status: 'INDEXED' }),
      doc({ id: 'c', status: 'PROCESSING' }),
      doc({ id: 'd', status: 'FAILED' }),
    ];
    expect(newlyFinished(before, after).map((d) => d.id)).toEqual(['a']);
  });
});

describe('stage track', () => {
  it.each([
    ['queued', 0, 1, 0],
    ['parsing', 0.02, 2, 0],
    ['parsing', 0.21, 2, 0.5],
    ['chunking', 0.45, 3, 0.5],
    ['embedding', 0.85, 4, 1],
    ['indexing', 0.99, 5, 1],
    ['indexing', 0.5, 5, 0],
    ['ocr', 0.3, 2, 0.5],
  ])('%s at %d fills segment %d to %d', (stage, progress, index, fraction) => {
    const position = trackPosition(stage, progress);
    expect(position.index).toBe(index);
    expect(position.fraction).toBeCloseTo(fraction, 5);
  });
});

describe('without an embedder', () => {
  const off = { semanticSearch: false };
  it('never says "Embedding" and draws no Embed segment', () => {
    expect(stageLabel('embedding', off)).toBe('Indexing');
    expect(stageLabel('embedding', { semanticSearch: true })).toBe('Embedding');
    expect(stageLabel('embedding', { semanticSearch: null })).toBe('Embedding');
    expect(trackStages(off)).not.toContain('Embed');
    expect(trackStages({ semanticSearch: true })).toContain('Embed');
  });

  it.each([
    ['chunking', 0.45, 3, 0.5],
    ['embedding', 0.5, 4, 0],
    ['embedding', 1, 4, 1],
    ['indexing', 0.99, 4, 1],
  ])('%s at %d fills segment %d to %d', (stage, progress, index, fraction) => {
    const position = trackPosition(stage, progress, off);
    expect(position.index).toBe(index);
    expect(position.index).toBeLessThan(trackStages(off).length);
    expect(position.fraction).toBeCloseTo(fraction, 5);
  });
});

describe('library summary', () => {
  const statuses = ['PENDING', 'PROCESSING', 'INDEXED', 'FAILED'] as const;

  it('uses the filter chips’ words and leaves zero counts out', () => {
    const docs = [
      doc({ id: 'a', status: 'PENDING' }),
      doc({ id: 'b', status: 'PENDING' }),
      doc({ id: 'c', status: 'INDEXED' }),
    ];
    const summary = librarySummary(countByStatus(docs, { bucket: 'all', name: '' }));
    expect(summary.total).toBe('3 documents');
    expect(summary.parts.map((p) => p.text)).toEqual(['2 queued', '1 indexed']);
  });

  it('property: the header and the unfiltered chips show the same numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statuses), { maxLength: 40 }), (list) => {
        const docs = list.map((status, i) => doc({ id: String(i), status }));
        const counts = countByStatus(docs, { bucket: 'all', name: '' });
        const summary = librarySummary(counts);
        expect(summary.total).toBe(plural(docs.length, 'document'));
        for (const s of statuses) {
          const part = summary.parts.find((p) => p.status === s);
          const n = docs.filter((d) => d.status === s).length;
          expect(part?.text ?? '0').toBe(n > 0 ? `${n} ${statusLabel(s).toLowerCase()}` : '0');
          expect(counts[s]).toBe(n);
        }
      }),
    );
  });
});

describe('chunk positions', () => {
  const base = { page: null, sheet: null, rowStart: null, rowEnd: null, headingPath: null, unitOrdinal: 0 };
  it.each([
    [{ ...base, page: 3 }, 'Page 3'],
    [{ ...base, sheet: 'Sales', rowStart: 4, rowEnd: 20 }, 'Sheet Sales · rows 4–20'],
    [{ ...base, sheet: 'Sales', rowStart: 4, rowEnd: 4 }, 'Sheet Sales · row 4'],
    [{ ...base, headingPath: 'Intro > Scope' }, 'Intro > Scope'],
    [{ ...base, unitOrdinal: 1 }, 'Part 2'],
  ])('%j reads %j', (c, label) => {
    expect(chunkLocation(c)).toBe(label);
  });

  it('names units by type and formats timestamps in UTC', () => {
    expect(unitNoun('application/pdf')).toBe('page');
    expect(unitNoun('text/csv')).toBe('sheet');
    expect(unitNoun('text/markdown')).toBe('section');
    expect(formatTimestamp('2023-06-20T14:05:00.000Z')).toBe('Jun 20, 2023, 14:05 UTC');
    expect(formatTimestamp('garbage')).toBe('garbage');
  });
});
