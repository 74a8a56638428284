import { describe, expect, it } from 'vitest';
import { kindOfMime, MIME_BY_KIND } from './mime-by-kind';
import type { DocumentKind } from './types';

describe('kindOfMime', () => {
  it('reads back every kind from the MIME type stored for it', () => {
    for (const [kind, mime] of Object.entries(MIME_BY_KIND) as [DocumentKind, string][]) {
      expect(kindOfMime(mime), mime).toBe(kind);
    }
  });

  it('ignores parameters and case', () => {
    expect(kindOfMime('Message/RFC822; charset=utf-8')).toBe('eml');
    expect(kindOfMime(' text/csv ;header=present')).toBe('csv');
  });

  it('reads every image type as an image and tab-separated text as a table', () => {
    for (const mime of ['image/jpeg', 'image/tiff', 'image/webp']) expect(kindOfMime(mime)).toBe('image');
    expect(kindOfMime('text/tab-separated-values')).toBe('csv');
  });

  it('says nothing of a type DocuChat does not store', () => {
    for (const mime of ['application/octet-stream', 'audio/mpeg', '', null, undefined]) {
      expect(kindOfMime(mime)).toBeUndefined();
    }
  });
});
