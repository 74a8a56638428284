/**
 * What typed metadata costs, measured: deterministic extraction at ingest (per document) and matching typed
 * filters against stored values (per document, the in-memory part of a typed search). Synthetic invoices, seeded.
 * Prints the numbers and records them in docs/figures.json. Run: npm run bench:typed-meta
 */
import { performance } from 'node:perf_hooks';
import { type BucketMetaSchema, type MetaFilter, matchesMetaFilters } from '@/lib/domain/typed-meta';
import { extractTypedValues } from '@/lib/ingest/extract-typed-meta';
import { recordFigures } from './figures';

const schema: BucketMetaSchema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true, label: 'Total' },
    { name: 'issued', type: 'date', required: true },
    { name: 'invoice_number', type: 'string', required: false, pattern: 'INV-\\d{4,}' },
    { name: 'status', type: 'enum', required: false, values: ['paid', 'open'] },
  ],
};

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface Truth {
  total_amount: number;
  issued: string;
}

function invoice(i: number): { chunks: { index: number; page: number; text: string }[]; truth: Truth } {
  const lines = Array.from(
    { length: 30 },
    (_, j) => `Item ${j + 1}: service line ${Math.floor(random() * 1e6)} ... $${(random() * 500).toFixed(2)}`,
  );
  const m = Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  const year = 2020 + Math.floor(random() * 5);
  const total = Number((random() * 5000).toFixed(2));
  const head = `ACME Supplies Ltd\nInvoice INV-${10000 + i}\nIssued: ${MONTHS[m]} ${day}, ${year}\n`;
  const tail = `\nSubtotal $${(random() * 5000).toFixed(2)}\nTotal: $${total.toLocaleString('en-US', { minimumFractionDigits: 2 })}\nStatus: ${random() > 0.5 ? 'Paid' : 'Open'}\n`;
  const text = head + lines.join('\n') + tail;
  const size = 800;
  const issued = `${year}-${String(m + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, k) => ({
    index: k,
    page: 1,
    text: text.slice(k * size, (k + 1) * size),
  }));
  return { chunks, truth: { total_amount: total, issued } };
}

const documents = 2000;
const docs = Array.from({ length: documents }, (_, i) => invoice(i));
const start = performance.now();
const values = docs.map((doc) => extractTypedValues(schema, doc.chunks).values);
const extractMs = (performance.now() - start) / documents;
const complete = values.filter((v) => Object.keys(v).length === schema.fields.length).length / documents;
const correct =
  values.filter((v, i) => v.total_amount === docs[i]?.truth.total_amount && v.issued === docs[i]?.truth.issued).length /
  documents;

const filters: MetaFilter[] = [
  { field: 'total_amount', type: 'number', op: '>', values: [1000] },
  { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
];
const rounds = 50;
const matchStart = performance.now();
let matched = 0;
for (let r = 0; r < rounds; r++) matched = values.filter((v) => matchesMetaFilters(v, filters)).length;
const matchUs = ((performance.now() - matchStart) / (rounds * documents)) * 1000;

console.log(`extraction: ${extractMs.toFixed(3)} ms per document (${documents} synthetic invoices, ~3 KB each)`);
console.log(`all ${schema.fields.length} fields found in ${(complete * 100).toFixed(1)}% of documents`);
console.log(`total_amount and issued equal to the generated truth in ${(correct * 100).toFixed(1)}% of documents`);
console.log(`typed filter match: ${matchUs.toFixed(3)} µs per document (${matched} of ${documents} match)`);

const command = 'npm run bench:typed-meta';
recordFigures({
  'typed_meta.extract_ms_per_doc': { value: Number(extractMs.toFixed(3)), unit: 'ms', command },
  'typed_meta.extract_complete_share': { value: Number(complete.toFixed(3)), unit: 'fraction', command },
  'typed_meta.extract_correct_share': { value: Number(correct.toFixed(3)), unit: 'fraction', command },
  'typed_meta.match_us_per_doc': { value: Number(matchUs.toFixed(3)), unit: 'µs', command },
});
