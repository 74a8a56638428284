import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { kindTerms } from './document-kind';
import { extractiveAnswer } from './extractive';

const EPUB = 'application/epub+zip';
const PDF = 'application/pdf';

describe('the words a document is called by its format', () => {
  it('names e-mails, presentations, spreadsheets and books by their format, not by their extension', () => {
    expect(kindTerms('message/rfc822')).toEqual(expect.arrayContaining(['email', 'mail']));
    expect(kindTerms('application/vnd.ms-outlook')).toContain('email');
    expect(kindTerms('application/vnd.openxmlformats-officedocument.presentationml.presentation')).toContain('slide');
    expect(kindTerms('application/vnd.oasis.opendocument.spreadsheet')).toContain('spreadsheet');
    expect(kindTerms('text/csv')).toContain('spreadsheet');
    expect(kindTerms(EPUB)).toContain('book');
  });

  it('gives no word to formats people do not call by a name of their own', () => {
    for (const mime of ['text/plain', 'text/markdown', 'text/html', 'application/msword', '', null, undefined])
      expect(kindTerms(mime), String(mime)).toEqual([]);
    // a presentation is no spreadsheet, an e-mail no book
    expect(kindTerms('application/vnd.oasis.opendocument.presentation')).not.toContain('spreadsheet');
    expect(kindTerms('message/rfc822')).not.toContain('book');
  });
});

describe('a question that names the document by its format', () => {
  const text = 'This edition runs to 312 pages, with a map of the passes at the end.';
  const ask = (mime: string, question: string) => {
    const doc = makeDocument({ filename: 'rambles', mime });
    return extractiveAnswer(stateWith({ question, opened: [makeChunk(doc, 0, text)] }), 'concise').answer;
  };

  it('must answer: "the book" over an e-book, whose passages never say "book"', () => {
    expect(ask(EPUB, 'How many pages does the book have?')).toContain(
      '"This edition runs to 312 pages, with a map of the passes at the end." [1]',
    );
  });

  it('must decline: "the book" over a PDF that never says it, or an asked word the e-book does not say', () => {
    expect(ask(PDF, 'How many pages does the book have?')).not.toMatch(/\[\d+\]/);
    expect(ask(EPUB, 'How many photographs does the book have?')).not.toMatch(/\[\d+\]/);
  });
});
