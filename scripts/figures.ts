import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Headline numbers of benchmark and report scripts, merged into docs/figures.json (one object, keys sorted). Each
 * entry records the command that measured it, the UTC date and the machine's state; values are only ever written
 * by running the script that measures them.
 */

const FIGURES = path.join(import.meta.dirname, '..', 'docs', 'figures.json');

interface Figure {
  value: number;
  unit: string;
  command: string;
  measured: string;
  machine: string;
}

export function recordFigures(
  entries: Record<string, { value: number; unit: string; command: string }>,
  machine = `2 cores, ${os.loadavg()[0]! > 1 ? 'loaded' : 'idle'}`,
): void {
  const current: Record<string, Figure> = fs.existsSync(FIGURES)
    ? (JSON.parse(fs.readFileSync(FIGURES, 'utf8')) as Record<string, Figure>)
    : {};
  const measured = new Date().toISOString().slice(0, 10);
  for (const [key, entry] of Object.entries(entries)) current[key] = { ...entry, measured, machine };
  const sorted = Object.fromEntries(Object.entries(current).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  fs.mkdirSync(path.dirname(FIGURES), { recursive: true });
  fs.writeFileSync(FIGURES, `${JSON.stringify(sorted, null, 2)}\n`);
}
