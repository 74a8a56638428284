// Generates both Prisma clients without downloading Prisma's native engines (see docs: STACK notes).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { targets, writeSchemas } from './prisma-schemas.mjs';

const root = path.resolve(import.meta.dirname, '..');
writeSchemas();
const cli = path.join(root, 'node_modules/prisma/build/index.js');
for (const t of targets) {
  execFileSync(process.execPath, [cli, 'generate', '--schema', path.join(t.dir, 'schema.prisma')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
      DATABASE_URL: t.provider === 'sqlite' ? 'file:./data/docuchat.db' : 'postgresql://localhost/unused',
    },
  });
}
console.log('prisma: generated sqlite and postgres clients');
