import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { bucketFieldMessage, sortBuckets, validateBucketName } from './bucket-names';

const buckets = [
  { id: 'b1', name: 'Contracts', documentCount: 0 },
  { id: 'b2', name: 'invoices', documentCount: 3 },
];

describe('validateBucketName', () => {
  it.each([
    ['  ', 'Give the bucket a name.'],
    ['x'.repeat(81), 'Bucket names have at most 80 characters.'],
    ['bad\u0007name', 'Bucket names cannot contain control characters.'],
    [' contracts ', 'You already have a bucket named “contracts”.'],
  ])('%j is refused', (name, message) => {
    expect(validateBucketName(name, buckets)).toBe(message);
  });

  it('accepts new names, markup included (it is rendered as text), and a rename to its own name', () => {
    expect(validateBucketName('Board meetings', buckets)).toBeNull();
    expect(validateBucketName('<script>alert(1)</script>', buckets)).toBeNull();
    expect(validateBucketName('CONTRACTS', buckets, 'b1')).toBeNull();
    expect(validateBucketName('x'.repeat(80), buckets)).toBeNull();
  });
});

describe('bucketFieldMessage', () => {
  it('keeps conflicts and field messages inline, everything else for the toaster', () => {
    expect(bucketFieldMessage(new AppError('conflict:bucket', 'Taken.'))).toBe('Taken.');
    expect(
      bucketFieldMessage(
        new AppError('unprocessable:api', 'Some fields are not valid.', { details: { fields: { name: 'Too long.' } } }),
      ),
    ).toBe('Too long.');
    expect(bucketFieldMessage(new AppError('internal:api'))).toBeNull();
    expect(bucketFieldMessage(new Error('x'))).toBeNull();
  });
});

describe('sortBuckets', () => {
  it('sorts by name ignoring case', () => {
    expect(sortBuckets([...buckets, { id: 'b3', name: 'archive', documentCount: 0 }]).map((b) => b.name)).toEqual([
      'archive',
      'Contracts',
      'invoices',
    ]);
  });
});
