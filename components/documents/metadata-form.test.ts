import { describe, expect, it } from 'vitest';
import {
  addTags,
  draftFromMetadata,
  errorsFromServer,
  isIsoDate,
  type MetadataDraft,
  validateMetadataDraft,
} from './metadata-form';

function draft(overrides: Partial<MetadataDraft> = {}): MetadataDraft {
  return { title: '', documentDate: '', tags: [], pendingTag: '', fields: [], ...overrides };
}

describe('addTags', () => {
  it('splits on commas, trims, collapses spaces and skips blanks and case-insensitive duplicates', () => {
    expect(addTags(['Legal'], ' legal, tax ,,  due   diligence ')).toEqual({ tags: ['Legal', 'tax', 'due diligence'] });
  });

  it('refuses over-long tags with a message but keeps the good ones', () => {
    const result = addTags([], `ok, ${'x'.repeat(61)}`);
    expect(result.tags).toEqual(['ok']);
    expect(result.error).toMatch(/at most 60/);
  });

  it('stops at 50 tags', () => {
    const many = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const result = addTags(many, 'one-more');
    expect(result.tags).toHaveLength(50);
    expect(result.error).toMatch(/at most 50 tags/);
  });

  it('keeps markup as plain text (rendering escapes it)', () => {
    expect(addTags([], '<b>x</b>').tags).toEqual(['<b>x</b>']);
  });
});

describe('isIsoDate', () => {
  it.each([
    ['2023-06-20', true],
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2023-13-01', false],
    ['20-06-2023', false],
    ['2023-6-2', false],
    ['', false],
  ])('%j → %s', (value, ok) => {
    expect(isIsoDate(value)).toBe(ok);
  });
});

describe('validateMetadataDraft', () => {
  it('turns a draft into metadata: blank → null, pending tag included, blank rows dropped', () => {
    const result = validateMetadataDraft(
      draft({
        title: '  Minutes of June  ',
        documentDate: '2023-06-20',
        tags: ['board'],
        pendingTag: 'minutes',
        fields: [
          { rowId: 'r1', key: ' Client ', value: ' ACME ' },
          { rowId: 'r2', key: '', value: '   ' },
        ],
      }),
    );
    expect(result).toEqual({
      ok: true,
      metadata: {
        title: 'Minutes of June',
        documentDate: '2023-06-20',
        tags: ['board', 'minutes'],
        fields: { Client: 'ACME' },
      },
    });
  });

  it('answers null title and date for an empty form', () => {
    expect(validateMetadataDraft(draft())).toEqual({
      ok: true,
      metadata: { title: null, documentDate: null, tags: [], fields: {} },
    });
  });

  it('reports every problem at once, per field row', () => {
    const result = validateMetadataDraft(
      draft({
        title: 't'.repeat(301),
        documentDate: '2023-02-30',
        pendingTag: 'y'.repeat(61),
        fields: [
          { rowId: 'r1', key: 'Client', value: 'a' },
          { rowId: 'r2', key: 'client', value: 'b' },
          { rowId: 'r3', key: '', value: 'orphan value' },
          { rowId: 'r4', key: 'k'.repeat(61), value: 'v' },
          { rowId: 'r5', key: 'Notes', value: 'v'.repeat(501) },
        ],
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.title).toMatch(/at most 300/);
    expect(result.errors.documentDate).toMatch(/real date/);
    expect(result.errors.tags).toMatch(/at most 60/);
    expect(Object.keys(result.errors.fields).sort()).toEqual(['r2', 'r3', 'r4', 'r5']);
    expect(result.errors.fields.r2?.key).toMatch(/already used/);
    expect(result.errors.fields.r3?.key).toMatch(/name/);
    expect(result.errors.fields.r5?.value).toMatch(/at most 500/);
  });

  it('round-trips stored metadata through a draft unchanged', () => {
    const metadata = { title: 'T', documentDate: '2020-01-31', tags: ['a', 'b'], fields: { x: '1', y: '2' } };
    expect(validateMetadataDraft(draftFromMetadata(metadata))).toEqual({ ok: true, metadata });
  });
});

describe('errorsFromServer', () => {
  it('maps 422 field paths onto the form', () => {
    const errors = errorsFromServer({
      fields: { 'metadata.title': 'Too long', 'metadata.tags.3': 'Bad tag', 'metadata.fields.x': 'Bad', bucketId: 'x' },
    });
    expect(errors).toEqual({ fields: {}, title: 'Too long', tags: 'Bad tag', fieldsGeneral: 'Bad' });
  });

  it('answers null when nothing concerns metadata', () => {
    expect(errorsFromServer(undefined)).toBeNull();
    expect(errorsFromServer({ fields: { bucketId: 'Invalid' } })).toBeNull();
    expect(errorsFromServer({ fields: 'nonsense' })).toBeNull();
  });
});
