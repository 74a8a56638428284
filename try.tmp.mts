import { readFileSync } from 'node:fs';
import { parseDocument } from '@/lib/ingest/parse';
const file = process.argv[2]!;
const t0 = performance.now();
try {
  const d = await parseDocument(new Uint8Array(readFileSync(file)), { filename: file.split('/').pop()! });
  console.log(JSON.stringify({ kind: d.kind, title: d.title, pageCount: d.pageCount, warnings: d.warnings, children: d.children?.map(c => [c.filename, c.bytes.byteLength]) }));
  for (const u of d.units.slice(0, Number(process.argv[3] ?? 4))) console.log('--- unit', u.ordinal, u.page, u.sheet, u.headingPath, u.ocrConfidence, '\n' + u.text.slice(0, 600));
} catch (e) { console.log('ERR', (e as Error).message); }
console.log('ms', Math.round(performance.now() - t0));
process.exit(0);
