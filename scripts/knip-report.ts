/**
 * npm run knip:report: runs knip (dead files, exports and dependencies; configuration in knip.jsonc) with its JSON
 * reporter, prints the counts and records them in docs/figures.json. `npm run knip` is the gate (`npm test` runs it
 * and fails on any finding); this script only measures, so it exits 0 whatever knip finds.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { recordFigures } from './figures';

const named = z.array(z.object({ name: z.string() }).loose()).optional();
const reportSchema = z.object({
  issues: z.array(
    z
      .object({
        file: z.string(),
        files: z.array(z.unknown()).optional(),
        dependencies: named,
        devDependencies: named,
        exports: named,
        types: named,
        nsExports: named,
        nsTypes: named,
        enumMembers: named,
      })
      .loose(),
  ),
});

const root = path.join(import.meta.dirname, '..');
const run = spawnSync('npx', ['knip', '--reporter', 'json', '--no-exit-code', '--no-progress'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (run.error) throw run.error;
const json = run.stdout.slice(run.stdout.indexOf('{'));
const { issues } = reportSchema.parse(JSON.parse(json));

const count = (pick: (row: (typeof issues)[number]) => unknown[] | undefined) =>
  issues.reduce((sum, row) => sum + (pick(row)?.length ?? 0), 0);
const unusedExports = count((r) => [
  ...(r.exports ?? []),
  ...(r.types ?? []),
  ...(r.nsExports ?? []),
  ...(r.nsTypes ?? []),
  ...(r.enumMembers ?? []),
]);
// knip lists an unused file as a row whose `files` array is non-empty
const unusedFiles = issues.filter((r) => (r.files?.length ?? 0) > 0).length;
const unusedDependencies = count((r) => [...(r.dependencies ?? []), ...(r.devDependencies ?? [])]);

console.log(`unused exports (values and types): ${unusedExports}`);
console.log(`unused files: ${unusedFiles}`);
console.log(`unused dependencies: ${unusedDependencies}`);
const command = 'npm run knip:report';
recordFigures({
  'knip.unused_exports': { value: unusedExports, unit: 'exports', command },
  'knip.unused_files': { value: unusedFiles, unit: 'files', command },
  'knip.unused_dependencies': { value: unusedDependencies, unit: 'dependencies', command },
});
