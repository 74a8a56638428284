/** File reading shared by the injection eval and the classifier's trainer: JSONL sets and text files under a folder. */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The records of a JSONL file (blank lines skipped). */
export function jsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The files under `dir` of 200 bytes to `maxBytes`, in sorted order (unreadable entries skipped). */
export function* walk(dir: string, maxBytes = 400_000, depth = 0): Generator<string> {
  if (depth > 12) return;
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const e of entries) {
    const f = path.join(dir, e);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(f);
    } catch {
      continue;
    }
    if (st.isDirectory()) yield* walk(f, maxBytes, depth + 1);
    else if (st.isFile() && st.size > 200 && st.size < maxBytes) yield f;
  }
}
