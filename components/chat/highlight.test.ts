import { describe, expect, it } from 'vitest';
import { findLoose, fold, locatePassage, locateQuoteInChunk, rangeOverPieces, segmentText } from './highlight';

describe('locateQuoteInChunk', () => {
  const chunk = 'Alpha beta. The refund window is 30 days. Gamma.';
  it('uses the offsets when they point at the quote', () => {
    const start = chunk.indexOf('The refund');
    const end = start + 'The refund window is 30 days.'.length;
    expect(locateQuoteInChunk(chunk, 'The refund window is 30 days.', start, end)).toEqual({ start, end });
  });
  it('searches for the quote when the offsets are stale', () => {
    expect(locateQuoteInChunk(chunk, 'window is 30 days', 0, 5)).toEqual({ start: 23, end: 40 });
  });
  it('rejects out-of-range offsets and an absent quote', () => {
    expect(locateQuoteInChunk(chunk, null, -1, 900)).toBeNull();
    expect(locateQuoteInChunk(chunk, 'not in the chunk at all', 3, 1)).toBeNull();
  });
  it('matches across different whitespace and case', () => {
    const r = locateQuoteInChunk('The  REFUND\nwindow', 'the refund window', null, null);
    expect(r).toEqual({ start: 0, end: 18 });
  });
});

describe('locatePassage', () => {
  const unit = 'Intro text. Alpha beta. The refund window is 30 days. Gamma. Outro.';
  const chunkText = 'Alpha beta. The refund window is 30 days. Gamma.';
  const charStart = unit.indexOf(chunkText);
  it('places chunk and quote inside the unit text by offsets', () => {
    const q = chunkText.indexOf('The refund');
    const p = locatePassage({
      unitText: unit,
      chunkText,
      charStart,
      charEnd: charStart + chunkText.length,
      quote: 'The refund window is 30 days.',
      quoteStart: q,
      quoteEnd: q + 29,
    });
    expect(p.text).toBe(unit);
    expect(p.chunk).toEqual({ start: charStart, end: charStart + chunkText.length });
    expect(unit.slice(p.quote?.start, p.quote?.end)).toBe('The refund window is 30 days.');
  });
  it('searches for the chunk when its offsets do not match the unit', () => {
    const p = locatePassage({
      unitText: unit,
      chunkText,
      charStart: 0,
      charEnd: 5,
      quote: 'Gamma.',
      quoteStart: null,
      quoteEnd: null,
    });
    expect(p.chunk?.start).toBe(charStart);
    expect(unit.slice(p.quote?.start, p.quote?.end)).toBe('Gamma.');
  });
  it('falls back to the chunk text alone', () => {
    const p = locatePassage({
      unitText: 'something else',
      chunkText,
      charStart: 0,
      charEnd: 3,
      quote: 'Gamma.',
      quoteStart: null,
      quoteEnd: null,
    });
    expect(p.text).toBe(chunkText);
    expect(p.chunk).toBeNull();
    expect(chunkText.slice(p.quote?.start, p.quote?.end)).toBe('Gamma.');
  });
});

describe('segmentText', () => {
  it('splits into plain, chunk and quote runs with the quote winning', () => {
    const segs = segmentText('0123456789', { start: 2, end: 8 }, { start: 4, end: 6 });
    expect(segs).toEqual([
      { text: '01', level: 0 },
      { text: '23', level: 1 },
      { text: '45', level: 2 },
      { text: '67', level: 1 },
      { text: '89', level: 0 },
    ]);
  });
  it('keeps hostile markup as literal text', () => {
    const text = '<script>window.__pwned=1</script>';
    const segs = segmentText(text, null, { start: 0, end: text.length });
    expect(segs).toEqual([{ text, level: 2 }]);
  });
  it('clamps ranges outside the text', () => {
    expect(segmentText('abc', { start: -5, end: 99 }, null)).toEqual([{ text: 'abc', level: 1 }]);
  });
});

describe('fold and findLoose', () => {
  it('removes whitespace and maps back to source offsets', () => {
    const f = fold('A b\n c');
    expect(f.text).toBe('abc');
    expect(f.map).toEqual([0, 2, 5]);
  });
  it('folds ligatures', () => {
    expect(fold('ﬁle').text).toBe('file');
  });
  it('finds a needle split differently across lines', () => {
    const hay = 'Payment terms: net\n30 days from invoice.';
    const r = findLoose(hay, 'net 30 days');
    expect(r && hay.slice(r.start, r.end)).toBe('net\n30 days');
  });
  it('matches a long needle by head and tail when its middle differs', () => {
    const middle = ' x'.repeat(30);
    const hay = `Start. ${'a'.repeat(45)}${middle}${'b'.repeat(45)} End.`;
    const needle = `${'a'.repeat(45)} y y y ${'b'.repeat(45)}`;
    const r = findLoose(hay, needle);
    expect(r).not.toBeNull();
    expect(hay.slice(r?.start, r?.end).startsWith('aaaa')).toBe(true);
  });
  it('returns null when nothing matches', () => {
    expect(findLoose('abc', 'xyz')).toBeNull();
    expect(findLoose('abc', '   ')).toBeNull();
  });
});

describe('rangeOverPieces', () => {
  it('maps a range over concatenated pieces', () => {
    expect(rangeOverPieces(['abc', 'def', 'ghi'], { start: 2, end: 7 })).toEqual([
      { piece: 0, start: 2, end: 3 },
      { piece: 1, start: 0, end: 3 },
      { piece: 2, start: 0, end: 1 },
    ]);
  });
  it('skips empty pieces', () => {
    expect(rangeOverPieces(['ab', '', 'cd'], { start: 1, end: 3 })).toEqual([
      { piece: 0, start: 1, end: 2 },
      { piece: 2, start: 0, end: 1 },
    ]);
  });
});
