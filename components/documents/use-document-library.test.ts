import { describe, expect, it } from 'vitest';
import type { DocumentSummary } from '@/lib/db/documents';
import { finishedAnnouncement } from './use-document-library';

type Finished = Pick<DocumentSummary, 'filename' | 'status' | 'error' | 'pageCount' | 'chunkCount' | 'mime'>;

const indexed: Finished = {
  filename: 'report.pdf',
  status: 'INDEXED',
  error: null,
  pageCount: 3,
  chunkCount: 12,
  mime: 'application/pdf',
};
const failed: Finished = { ...indexed, filename: 'broken.pdf', status: 'FAILED', error: 'not a PDF' };

describe('finishedAnnouncement', () => {
  it('says nothing when nothing finished', () => {
    expect(finishedAnnouncement([])).toBeNull();
  });

  it('names one finished document with what was indexed, or why it failed', () => {
    expect(finishedAnnouncement([indexed])).toBe('report.pdf is indexed: 3 pages · 12 chunks.');
    expect(finishedAnnouncement([failed])).toBe('broken.pdf failed: not a PDF.');
    expect(finishedAnnouncement([{ ...failed, error: null }])).toBe('broken.pdf failed: unknown reason.');
  });

  it('counts several, and the failures among them', () => {
    expect(finishedAnnouncement([indexed, indexed])).toBe('2 documents finished.');
    expect(finishedAnnouncement([indexed, failed, failed])).toBe('3 documents finished, 2 failed.');
  });
});
