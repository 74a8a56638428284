import { describe, expect, it } from 'vitest';
import type { BucketMetaSchema } from '@/lib/domain/typed-meta';
import { scriptedModel } from '@/test/support/agent/mock-models';
import { extractTypedValuesWithModel } from './extract-typed-meta-model';

const schema: BucketMetaSchema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true },
    { name: 'issued', type: 'date', required: true },
    { name: 'status', type: 'enum', required: false, values: ['paid', 'open'] },
    { name: 'vendor', type: 'string', required: false },
  ],
};
const chunks = [
  { index: 0, page: 1, text: 'ACME Supplies Ltd\nInvoice issued on the second of March 2023.' },
  { index: 1, page: 2, text: 'Amount payable:   EUR 1,500.00\nStatus: open' },
];

describe('extractTypedValuesWithModel', () => {
  it('keeps values that validate and whose quote is in the document and states the value', async () => {
    const model = scriptedModel({
      json: [
        {
          values: [
            { field: 'total_amount', value: '1500', quote: 'Amount payable: EUR 1,500.00' },
            { field: 'issued', value: '2023-03-02', quote: 'issued on the second of March 2023' },
            // invented quote: not in the document
            { field: 'vendor', value: 'ACME Corp', quote: 'Vendor: ACME Corp' },
            // the quote does not state the value
            { field: 'status', value: 'paid', quote: 'Status: open' },
            // not a field; not a number
            { field: 'tax', value: '10', quote: 'ACME' },
          ],
        },
      ],
    });
    const out = await extractTypedValuesWithModel({ model, schema, chunks, timeoutMs: 5000 });
    expect(out?.values).toEqual({ total_amount: 1500, issued: '2023-03-02' });
    expect(out?.evidence.total_amount).toMatchObject({ source: 'model', chunkIndex: 1, page: 2 });
    const proof = out?.evidence.total_amount;
    expect(chunks[1]?.text.slice(proof?.charStart ?? 0, proof?.charEnd ?? 0)).toBe('Amount payable:   EUR 1,500.00');
    expect(model.prompts()[0]).toContain('total_amount (number)');
  });

  it('returns null when the output does not parse (the deterministic values are used)', async () => {
    const model = scriptedModel({ json: ['not json at all'] });
    expect(await extractTypedValuesWithModel({ model, schema, chunks, timeoutMs: 5000 })).toBeNull();
  });
});
