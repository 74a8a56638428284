import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BucketMetaSchema } from '@/lib/domain/typed-meta';
import { extractTypedValues } from './extract-typed-meta';

const invoices: BucketMetaSchema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true },
    { name: 'issued', type: 'date', required: true },
    { name: 'invoice_number', type: 'string', required: false, pattern: 'INV-\\d{4,}' },
    { name: 'status', type: 'enum', required: false, values: ['paid', 'open'] },
  ],
};

const text = [
  'ACME Supplies Ltd — Invoice INV-20231',
  'Issued: March 2, 2023     Due: 2023-04-01',
  'Widgets x 10 ........ $120.00',
  'Subtotal $1,380.00',
  'Total amount: $1,500.00',
  'Status: Paid',
].join('\n');

describe('extractTypedValues', () => {
  it('reads each field after its label, keeps the evidence span, and ignores a label inside a longer word', () => {
    const out = extractTypedValues(invoices, [{ index: 0, page: 1, text }]);
    expect(out.values).toEqual({
      total_amount: 1500,
      issued: '2023-03-02',
      invoice_number: 'INV-20231',
      status: 'paid',
    });
    const proof = out.evidence.total_amount;
    expect(proof).toMatchObject({ source: 'pattern', chunkIndex: 0, page: 1 });
    expect(text.slice(proof?.charStart ?? 0, proof?.charEnd ?? 0)).toBe('Total amount: $1,500.00');
    expect(out.evidence.issued?.quote).toBe('Issued: March 2, 2023');
  });

  it('falls back to the first date and the first currency amount when the schema has one field of the type', () => {
    const schema: BucketMetaSchema = {
      fields: [
        { name: 'signed_on', type: 'date', required: false },
        { name: 'fee', type: 'number', required: false },
      ],
    };
    const out = extractTypedValues(schema, [
      { index: 0, page: null, text: 'Agreement of 2 pages, made on 14 July 2021 for 3 years.' },
      { index: 1, page: null, text: 'Payment: 12 instalments of EUR 450.50.' },
    ]);
    expect(out.values).toEqual({ signed_on: '2021-07-14', fee: 450.5 });
    expect(out.evidence.fee?.chunkIndex).toBe(1);
  });

  it('never reads an impossible date, a slash date or a bare year as a value', () => {
    const schema: BucketMetaSchema = {
      fields: [
        { name: 'issued', type: 'date', required: false },
        { name: 'total', type: 'number', required: false },
      ],
    };
    const out = extractTypedValues(schema, [
      { index: 0, page: 1, text: 'Issued 2023-02-30 or 03/02/2023. Total in 2023' },
    ]);
    expect(out.values).toEqual({});
  });

  it('finds nothing in text without the values, and every value it finds is quoted from the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (noise) => {
        const out = extractTypedValues(invoices, [{ index: 0, page: 1, text: noise }]);
        for (const proof of Object.values(out.evidence)) {
          expect(noise.slice(proof.charStart ?? 0, proof.charEnd ?? 0).replace(/\s+/g, ' ')).toBe(proof.quote);
        }
      }),
    );
  });
});
