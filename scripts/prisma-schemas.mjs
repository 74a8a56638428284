// Writes prisma/sqlite/schema.prisma and prisma/postgres/schema.prisma from prisma/schema.base.prisma.
// One data model, two providers: Prisma fixes the provider per schema, so each gets its own
// generated client (lib/generated/<provider>) and its own migrations folder.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const base = fs.readFileSync(path.join(root, 'prisma/schema.base.prisma'), 'utf8');

export const targets = [
  { dir: 'prisma/sqlite', provider: 'sqlite', output: '../../lib/generated/sqlite' },
  { dir: 'prisma/postgres', provider: 'postgresql', output: '../../lib/generated/postgres' },
];

export function writeSchemas() {
  for (const t of targets) {
    const text = `// GENERATED from prisma/schema.base.prisma by scripts/prisma-schemas.mjs: edit the base file.\n${base
      .replace('__PROVIDER__', t.provider)
      .replace('__OUTPUT__', t.output)}`;
    fs.mkdirSync(path.join(root, t.dir), { recursive: true });
    const file = path.join(root, t.dir, 'schema.prisma');
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) writeSchemas();
