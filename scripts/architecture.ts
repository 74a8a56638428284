import fs from 'node:fs';
import path from 'node:path';

/**
 * The project's import rules, checked by test/architecture.test.ts and counted by scripts/arch-report.ts.
 * Written by hand rather than with dependency-cruiser: three rules over import specifiers need no resolver
 * beyond the `@/` alias and relative paths, and a regex scan of import/export/require/import() is enough for
 * code that biome formats (one specifier per string literal).
 *
 * 1. Prisma lives in lib/db: no module outside lib/db imports `@prisma/*`, `lib/generated/*` or
 *    `lib/db/client` (the raw client). Test code may seed through lib/db/client; see PRISMA_EXCEPTIONS.
 * 2. lib/ is below the app: no module under lib/ imports app/ or components/.
 * 3. Product code never imports test support: no non-test module under app/, components/, lib/, or
 *    proxy.ts / instrumentation.ts imports test/, e2e/ or any `testing/` folder.
 */

export interface SourceFile {
  /** Repository-relative path with forward slashes. */
  path: string;
  source: string;
}

export interface ImportRef {
  from: string;
  specifier: string;
  /** Repository-relative target for `@/` and relative specifiers; the package name otherwise. */
  target: string;
  line: number;
}

export interface Violation {
  rule: 'prisma-outside-db' | 'lib-imports-app' | 'product-imports-test';
  from: string;
  specifier: string;
  line: number;
}

/** Modules outside lib/db allowed to import Prisma packages, with the reason. */
export const PRISMA_EXCEPTIONS: Record<string, string> = {
  'scripts/migrate.mjs':
    'the offline migration runner: plain Node (no TS alias), builds driver adapters for the schema engine, runs no queries',
};

/** The rules' own test: its fixtures are violations on purpose (inside strings, which the scan cannot tell). */
const RULES_TEST = 'test/architecture.test.ts';

const SCANNED_EXT = /\.(ts|tsx|mjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.next', '.git', 'generated', 'test-results', 'playwright-report']);

/** Every .ts/.tsx/.mjs file of the repository (generated Prisma clients and dependencies excluded). */
export function listSourceFiles(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') && entry.name !== '.') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(full);
      } else if (SCANNED_EXT.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        out.push({ path: path.relative(root, full).split(path.sep).join('/'), source: fs.readFileSync(full, 'utf8') });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const IMPORT_PATTERNS = [
  // import x from '…' / import type { X } from '…' / export { x } from '…' / export * from '…'
  /\b(?:import|export)\s+(?:type\s+)?(?:[\w*$\s{},]+?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  // import('…') and require('…')
  /\b(?:import|require)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

/** The import specifiers of one file with their resolved targets. */
export function importsOf(file: SourceFile): ImportRef[] {
  const refs: ImportRef[] = [];
  const seen = new Set<number>();
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of file.source.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier === undefined || match.index === undefined) continue;
      const at = match.index + match[0].lastIndexOf(specifier);
      if (seen.has(at)) continue;
      seen.add(at);
      const line = file.source.slice(0, match.index).split('\n').length;
      refs.push({ from: file.path, specifier, target: resolveTarget(file.path, specifier), line });
    }
  }
  return refs;
}

function resolveTarget(from: string, specifier: string): string {
  if (specifier.startsWith('@/')) return path.posix.normalize(specifier.slice(2));
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  }
  return specifier;
}

/** Test code: test files, and everything under test/, e2e/ or a `testing/` folder. */
export function isTestCode(file: string): boolean {
  return (
    /\.test\.(ts|tsx|mjs)$/.test(file) ||
    file.startsWith('test/') ||
    file.startsWith('e2e/') ||
    /(^|\/)testing\//.test(file)
  );
}

function isProductModule(file: string): boolean {
  if (isTestCode(file)) return false;
  return (
    file.startsWith('app/') ||
    file.startsWith('components/') ||
    file.startsWith('lib/') ||
    file === 'proxy.ts' ||
    file === 'instrumentation.ts'
  );
}

function within(target: string, dir: string): boolean {
  return target === dir || target.startsWith(`${dir}/`);
}

/** True when the import reaches Prisma directly: a Prisma package, a generated client, or lib/db/client. */
export function isPrismaImport(ref: ImportRef): boolean {
  return (
    ref.target === 'prisma' ||
    ref.target.startsWith('@prisma/') ||
    within(ref.target, 'lib/generated') ||
    ref.target === 'lib/db/client' ||
    ref.target.startsWith('lib/db/client.')
  );
}

function importsTestSupport(ref: ImportRef): boolean {
  return within(ref.target, 'test') || within(ref.target, 'e2e') || /(^|\/)testing(\/|$)/.test(ref.target);
}

/** All rule violations in these files. */
export function findViolations(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const inDb = within(file.path, 'lib/db');
    for (const ref of importsOf(file)) {
      const v = { from: ref.from, specifier: ref.specifier, line: ref.line };
      if (
        !inDb &&
        !within(file.path, 'lib/generated') &&
        !isTestCode(file.path) &&
        !(file.path in PRISMA_EXCEPTIONS) &&
        isPrismaImport(ref)
      ) {
        violations.push({ rule: 'prisma-outside-db', ...v });
      }
      if (within(file.path, 'lib') && (within(ref.target, 'app') || within(ref.target, 'components'))) {
        violations.push({ rule: 'lib-imports-app', ...v });
      }
      if (isProductModule(file.path) && importsTestSupport(ref)) {
        violations.push({ rule: 'product-imports-test', ...v });
      }
    }
  }
  return violations;
}

/** Prisma imports outside lib/db: in product code and scripts (the exceptions excluded), and in test code. */
export function countPrismaImportsOutsideDb(files: readonly SourceFile[]): { product: number; tests: number } {
  let product = 0;
  let tests = 0;
  for (const file of files) {
    if (within(file.path, 'lib/db') || file.path in PRISMA_EXCEPTIONS || file.path === RULES_TEST) continue;
    const n = importsOf(file).filter(isPrismaImport).length;
    if (isTestCode(file.path)) tests += n;
    else product += n;
  }
  return { product, tests };
}
