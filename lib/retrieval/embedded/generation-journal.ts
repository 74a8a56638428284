import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { processAlive } from '@/lib/retrieval/embedded/durable-files';

/**
 * The folder where a stale keyword index's next generation is built (analyser upgrade), beside the live one, and
 * the journal of the writes made while it is built. While the folder exists, every write of the owner (from any
 * process) appends its intent to the journal before it touches the table; the rebuild replays the journal into
 * the new generation before swapping it in, so no write made during the rebuild is lost. Kept apart from
 * keyword-store.ts so the write path needs only this small module.
 */

const journalEntrySchema = z.object({
  chunkIds: z.array(z.string()),
  documentIds: z.array(z.string()),
  all: z.boolean().optional(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** The next-generation folder of the keyword index in `keywordDir` (`<table>.kw` -> `<table>.kw-next`). */
export function nextGenerationDir(keywordDir: string): string {
  return `${keywordDir}-next`;
}

function journalPath(nextDir: string): string {
  return path.join(nextDir, 'JOURNAL');
}

/**
 * Appends a write's intent to the journal of the generation being built, if one is (called under the owner's
 * write lock, before the table is written). Durable (fsync) before the write proceeds.
 */
export async function journalWrite(keywordDir: string, entry: JournalEntry): Promise<void> {
  const nextDir = nextGenerationDir(keywordDir);
  if (!existsSync(nextDir)) return;
  const handle = await open(journalPath(nextDir), 'a');
  try {
    await handle.appendFile(`${JSON.stringify(entry)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The journal's complete entries from entry `from` on. A line cut short by a crash is ignored: its write had not
 * started (the entry is written first).
 */
export async function readJournal(nextDir: string, from = 0): Promise<JournalEntry[]> {
  let text: string;
  try {
    text = await readFile(journalPath(nextDir), 'utf8');
  } catch {
    return [];
  }
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      entries.push(journalEntrySchema.parse(JSON.parse(line)));
    } catch {
      // A torn last line.
    }
  }
  return entries.slice(from);
}

/** Empties the journal (a fresh rebuild under the write lock: everything written so far is in the table). */
export function clearJournal(nextDir: string): void {
  writeFileSync(journalPath(nextDir), '');
}

/**
 * Claims the building of the next generation for this process (one builder per owner across processes). A claim
 * of a process that is gone (kill -9) is taken over. Returns a release function, or null when another live
 * process (or another partition of this process) builds it.
 */
export function claimBuilder(nextDir: string): (() => void) | null {
  const file = path.join(nextDir, 'BUILDER');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // Already gone (the folder was removed after the swap).
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(file, 'utf8'));
      } catch {
        continue;
      }
      if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) {
        try {
          unlinkSync(file);
        } catch {
          // Another process took it over first.
        }
        continue;
      }
      return null;
    }
  }
  return null;
}
