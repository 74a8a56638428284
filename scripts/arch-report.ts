// npm run arch:report – counts what the architecture rules guard (scripts/architecture.ts) and records
// arch.prisma_imports_outside_db in docs/figures.json. The rules themselves fail the unit tests
// (test/architecture.test.ts); this prints the numbers.
import path from 'node:path';
import { countPrismaImportsOutsideDb, findViolations, listSourceFiles, PRISMA_EXCEPTIONS } from './architecture';
import { recordFigures } from './figures';

const root = path.resolve(import.meta.dirname, '..');
const files = listSourceFiles(root);
const counts = countPrismaImportsOutsideDb(files);
const violations = findViolations(files);

console.log(`files scanned: ${files.length}`);
console.log(`Prisma imports outside lib/db (product code and scripts): ${counts.product}`);
console.log(`Prisma imports outside lib/db (test code, seeding through lib/db/client): ${counts.tests}`);
for (const [file, reason] of Object.entries(PRISMA_EXCEPTIONS)) console.log(`exception: ${file} – ${reason}`);
console.log(`rule violations: ${violations.length}`);
for (const v of violations) console.log(`  ${v.rule}: ${v.from}:${v.line} imports '${v.specifier}'`);

recordFigures({
  'arch.prisma_imports_outside_db': {
    value: counts.product,
    unit: 'imports',
    command: 'npm run arch:report',
  },
});
