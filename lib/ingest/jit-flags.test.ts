import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INGEST_V8_FLAGS } from './jit-flags';

describe('INGEST_V8_FLAGS', () => {
  it('are the options `npm run ingest` gives node, and node accepts them', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.ingest).toBe(`tsx ${INGEST_V8_FLAGS.join(' ')} scripts/ingest.ts`);
    const run = spawnSync(process.execPath, [...INGEST_V8_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // An option node does not know is refused (so the check above can fail).
    expect(spawnSync(process.execPath, ['--interrupt-budgett=1', '-e', '0'], { encoding: 'utf8' }).status).not.toBe(0);
  });
});
