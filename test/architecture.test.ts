import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findViolations, importsOf, listSourceFiles, type SourceFile } from '@/scripts/architecture';

const root = path.resolve(import.meta.dirname, '..');

describe('the import rules of the repository', () => {
  it('hold for every .ts/.tsx/.mjs file', () => {
    const files = listSourceFiles(root);
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path === 'lib/db/client.ts')).toBe(true);
    const violations = findViolations(files).map((v) => `${v.rule}: ${v.from}:${v.line} imports '${v.specifier}'`);
    expect(violations).toEqual([]);
  });
});

describe('the rules catch', () => {
  const file = (p: string, source: string): SourceFile => ({ path: p, source });

  it('Prisma (packages, generated clients, the raw client) imported outside lib/db', () => {
    const found = findViolations([
      file('lib/chat/x.ts', "import { getDb } from '@/lib/db/client';"),
      file('app/api/x/route.ts', "import type { Prisma } from '../../../lib/generated/sqlite/client';"),
      file('scripts/y.ts', "const { PrismaPg } = await import('@prisma/adapter-pg');"),
      file('components/z.tsx', "export { Db } from '@/lib/db/client';"),
    ]);
    expect(found.map((v) => [v.rule, v.from])).toEqual([
      ['prisma-outside-db', 'lib/chat/x.ts'],
      ['prisma-outside-db', 'app/api/x/route.ts'],
      ['prisma-outside-db', 'scripts/y.ts'],
      ['prisma-outside-db', 'components/z.tsx'],
    ]);
  });

  it('but not inside lib/db, nor in test code seeding through the client', () => {
    expect(
      findViolations([
        file('lib/db/documents.ts', "import { getDb } from '@/lib/db/client';"),
        file('lib/db/client.ts', "import { PrismaClient } from '@/lib/generated/sqlite/client';"),
        file('lib/ingest/jobs.db.int.test.ts', "import { getDb } from '@/lib/db/client';"),
        file('test/factories.ts', "import { getDb } from '@/lib/db/client';"),
        file('lib/chat/y.ts', "import { findDocument } from '@/lib/db/documents';"),
      ]),
    ).toEqual([]);
  });

  it('lib importing app or components', () => {
    const found = findViolations([
      file('lib/a.ts', "import { x } from '@/components/chat/keyed';"),
      file('lib/b/c.ts', "import { y } from '../../app/api/chat/route';"),
      file('lib/d.ts', "import { z } from '@/lib/appliance';"),
    ]);
    expect(found.map((v) => [v.rule, v.from])).toEqual([
      ['lib-imports-app', 'lib/a.ts'],
      ['lib-imports-app', 'lib/b/c.ts'],
    ]);
  });

  it('product code importing test support', () => {
    const found = findViolations([
      file('lib/agent/loop.ts', "import { mock } from '@/lib/agent/testing/mock-models';"),
      file('app/page.tsx', "import { f } from '@/test/factories';"),
      file('proxy.ts', "import { g } from './e2e/fixtures';"),
      file('instrumentation.ts', "await import('@/test/support/fake');"),
      file('lib/agent/loop.test.ts', "import { mock } from '@/lib/agent/testing/mock-models';"),
      file('lib/agent/testing/state.ts', "import { f } from '@/test/factories';"),
      file('components/x.tsx', "import { h } from '@/lib/testingly';"),
    ]);
    expect(found.map((v) => [v.rule, v.from])).toEqual([
      ['product-imports-test', 'lib/agent/loop.ts'],
      ['product-imports-test', 'app/page.tsx'],
      ['product-imports-test', 'proxy.ts'],
      ['product-imports-test', 'instrumentation.ts'],
    ]);
  });

  it('imports in every syntax biome leaves: multi-line, type-only, re-exports, dynamic, require', () => {
    const refs = importsOf(
      file(
        'lib/x.ts',
        [
          'import {',
          '  a,',
          '  type B,',
          "} from '@/lib/a';",
          "import type { C } from './c';",
          "import './side-effect';",
          "export * from '@/lib/d';",
          "const e = await import('@/lib/e');",
          "const f = require('node:fs');",
          "const text = 'import nothing from here';",
        ].join('\n'),
      ),
    );
    expect(refs.map((r) => [r.target, r.line])).toEqual([
      ['lib/a', 1],
      ['lib/c', 5],
      ['lib/side-effect', 6],
      ['lib/d', 7],
      ['lib/e', 8],
      ['node:fs', 9],
    ]);
  });
});
