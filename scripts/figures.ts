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
 * The 1-minute load average when the measuring script started, and the highest one seen while it ran (sampled every
 * 5 s). A benchmark keeping both cores busy (plus a worker thread or two) reads up to ~3-4 on an otherwise idle
 * machine, so "loaded" means other work was running when the measurement began (start > 1.5) or joined it during
 * the run (peak > 4): a 40-minute run that started on an idle machine and shared it with other jobs is loaded.
 */
const LOAD_AT_START = os.loadavg()[0] ?? 0;
const OWN_LOAD = 4;
let peakLoad = LOAD_AT_START;
setInterval(() => {
  peakLoad = Math.max(peakLoad, os.loadavg()[0] ?? 0);
}, 5000).unref();

/** "2 cores, idle" or "2 cores, loaded", see LOAD_AT_START. */
function machineLabel(): string {
  peakLoad = Math.max(peakLoad, os.loadavg()[0] ?? 0);
  return `2 cores, ${LOAD_AT_START > 1.5 || peakLoad > OWN_LOAD ? 'loaded' : 'idle'}`;
}

export function recordFigures(
  entries: Record<string, { value: number; unit: string; command: string }>,
  machine: string = machineLabel(),
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
