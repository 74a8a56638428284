/** Writes benchmark headline numbers into docs/figures.json (one object, keys sorted), merging with what is there. */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FIGURES = path.resolve(import.meta.dirname, '..', 'docs', 'figures.json');

interface Figure {
  value: number;
  unit: string;
  command: string;
  measured: string;
  machine: string;
}

export function recordFigures(
  entries: Record<string, { value: number; unit: string; command: string }>,
  machine?: string,
): void {
  const existing: Record<string, Figure> = existsSync(FIGURES) ? JSON.parse(readFileSync(FIGURES, 'utf8')) : {};
  const measured = new Date().toISOString().slice(0, 10);
  const where = machine ?? `2 cores, ${(os.loadavg()[0] ?? 0) > 1 ? 'loaded' : 'idle'}`;
  for (const [key, entry] of Object.entries(entries)) existing[key] = { ...entry, measured, machine: where };
  const sorted = Object.fromEntries(Object.entries(existing).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(FIGURES, `${JSON.stringify(sorted, null, 2)}\n`);
}
