import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * docs/figures.json: one object of headline numbers, each written by the script that measured it (never by
 * hand). Merges into the existing object and writes it back with sorted keys.
 */

export interface Figure {
  value: number;
  unit: string;
  command: string;
  measured: string;
  machine: string;
}

const FIGURES_PATH = path.resolve(import.meta.dirname, '..', 'docs', 'figures.json');

/**
 * The 1-minute load average when the measuring script started: at the end of a run it mostly counts the run's own
 * work (a benchmark keeping both cores busy reads ~2 on an otherwise idle machine), so "loaded" means other work
 * was running when the measurement began.
 */
const LOAD_AT_START = os.loadavg()[0] ?? 0;

export function recordFigures(
  entries: Record<string, { value: number; unit: string; command: string }>,
  machine: string = `2 cores, ${LOAD_AT_START > 1.5 ? 'loaded' : 'idle'}`,
): void {
  const existing: Record<string, Figure> = fs.existsSync(FIGURES_PATH)
    ? JSON.parse(fs.readFileSync(FIGURES_PATH, 'utf8'))
    : {};
  const measured = new Date().toISOString().slice(0, 10);
  for (const [key, entry] of Object.entries(entries)) existing[key] = { ...entry, measured, machine };
  const sorted = Object.fromEntries(Object.entries(existing).sort(([a], [b]) => a.localeCompare(b)));
  fs.mkdirSync(path.dirname(FIGURES_PATH), { recursive: true });
  fs.writeFileSync(FIGURES_PATH, `${JSON.stringify(sorted, null, 2)}\n`);
}
