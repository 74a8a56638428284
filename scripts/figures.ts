import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Headline numbers of the benchmark and eval scripts, merged into docs/figures.json (one object, sorted keys). */

export interface Figure {
  value: number;
  unit: string;
  command: string;
  measured: string;
  machine: string;
}

const FILE = path.resolve(import.meta.dirname, '../docs/figures.json');

export function recordFigures(
  entries: Record<string, { value: number; unit: string; command: string }>,
  machine?: string,
): void {
  const current: Record<string, Figure> = existsSync(FILE)
    ? (JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, Figure>)
    : {};
  const measured = new Date().toISOString().slice(0, 10);
  const where = machine ?? `2 cores, ${(os.loadavg()[0] ?? 0) > 1 ? 'loaded' : 'idle'}`;
  for (const [key, e] of Object.entries(entries)) current[key] = { ...e, measured, machine: where };
  const sorted = Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}
