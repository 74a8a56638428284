import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Records headline numbers in docs/figures.json (one object, sorted keys). Each key is written by running the
 * script that measures it, never by hand: value, unit, the command, the UTC date and the machine's state.
 */
const FILE = path.resolve(import.meta.dirname, '..', 'docs', 'figures.json');

export function recordFigures(
  entries: Record<string, { value: number; unit: string; command: string }>,
  machine?: string,
): void {
  const current: Record<string, unknown> = existsSync(FILE) ? JSON.parse(readFileSync(FILE, 'utf8')) : {};
  const measured = new Date().toISOString().slice(0, 10);
  const where = machine ?? `2 cores, ${(os.loadavg()[0] ?? 0) > 1 ? 'loaded' : 'idle'}`;
  for (const [key, e] of Object.entries(entries)) current[key] = { ...e, measured, machine: where };
  const sorted = Object.fromEntries(
    Object.keys(current)
      .sort()
      .map((k) => [k, current[k]]),
  );
  writeFileSync(FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}
