import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IngestError, type IngestErrorCode } from '@/lib/ingest/errors';
import { failureAdvice, failureKind } from './failure-advice';

describe('failureAdvice', () => {
  // the reasons exactly as lib/ingest and the worker store them
  it.each([
    ['password-protected', 'password-protected', false],
    ['empty file', 'empty', false],
    ['no extractable text (scanned?)', 'no-text', false],
    ['malformed PDF: Invalid XRef stream', 'malformed', false],
    ['not a PDF: no PDF header and binary content', 'malformed', false],
    ['not a valid .docx: not a ZIP package and binary content', 'malformed', false],
    ['unsupported file type: RTF; save it as .docx or PDF', 'unsupported', false],
    ['refused: the file is an executable (application/x-msdownload), not a document', 'unsupported', false],
    ['OpenDocument files (.odt/.ods/.odp) are not supported; save as .docx/.xlsx or PDF', 'unsupported', false],
    ['refused: archive looks like a zip bomb (ratio 1000)', 'zip-bomb', false],
    [
      'refused: XML part word/document.xml declares a DTD or entities (entity expansion is never performed)',
      'xml-entities',
      false,
    ],
    ['file too large: 120.0 MB (limit 100 MB)', 'too-large', false],
    ['file too large to parse within the memory limit', 'out-of-memory', false],
    ['parsing timed out after 120s', 'timeout', true],
    ['Cancelled. Retry to process this file again.', 'cancelled', true],
    [
      'Processing was interrupted repeatedly (the server stopped while working on this file). Retry to try again.',
      'interrupted',
      true,
    ],
    ['An unexpected error stopped processing. Retry, or contact the operator if it persists.', 'internal', true],
    ['parser crashed: boom', 'internal', true],
    ['something nobody wrote yet', 'unknown', true],
  ])('%j is %s (retry: %s)', (error, kind, retry) => {
    const advice = failureAdvice({ error });
    expect(advice.kind).toBe(kind);
    expect(advice.retry).toBe(retry);
    expect(advice.advice.length).toBeGreaterThan(10);
  });

  it('a stored code wins over the reason text', () => {
    expect(failureKind({ error: 'Cancelled.', errorCode: 'password-protected' })).toBe('password-protected');
    expect(failureKind({ error: 'password-protected', errorCode: 'not-a-code' })).toBe('password-protected');
  });

  it('no reason at all can be retried', () => {
    expect(failureAdvice({ error: null })).toMatchObject({ kind: 'unknown', retry: true });
  });

  it('the reason a word appears in the middle of does not decide', () => {
    expect(failureKind({ error: 'An unexpected error: password-protected is mentioned' })).toBe('internal');
  });

  it('property: an IngestError of any code, stored by its message, never offers a useless retry for hopeless codes', () => {
    const hopeless: IngestErrorCode[] = ['password-protected', 'empty', 'unsupported', 'malformed'];
    fc.assert(
      fc.property(fc.constantFrom(...hopeless), fc.string(), (code, tail) => {
        const stored = new IngestError(
          code,
          code === 'password-protected'
            ? code
            : `${code === 'empty' ? 'empty file' : code === 'unsupported' ? 'unsupported file type' : 'malformed PDF'}: ${tail}`,
        );
        expect(failureAdvice({ error: stored.message }).retry).toBe(false);
        expect(failureAdvice({ error: tail, errorCode: code }).retry).toBe(false);
      }),
    );
  });
});
