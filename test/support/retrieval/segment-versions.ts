import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checksum, transcodeSegment } from '@/lib/retrieval/embedded/keyword-segment';
import { KeywordStore } from '@/lib/retrieval/embedded/keyword-store';

/**
 * Rewrites every segment of the keyword index in `dir` in the postings layout of `version` in place (same names,
 * new checksums in the manifest): an index as an older release wrote it, for tests of reading and upgrading it.
 * Not crash-safe; for closed test indexes only.
 */
export async function rewriteSegmentsAs(dir: string, version: 2 | 3): Promise<void> {
  const manifestFile = KeywordStore.manifestPath(dir);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    segments: { name: string; checksum: number }[];
  };
  for (const segment of manifest.segments) {
    const file = path.join(dir, `${segment.name}.idx`);
    const idx = await transcodeSegment(readFileSync(file), version, () => undefined);
    writeFileSync(file, idx);
    segment.checksum = checksum(idx);
  }
  writeFileSync(manifestFile, JSON.stringify(manifest));
}

/** The postings layout version of a segment file (its magic). */
export function segmentFileVersion(file: string): number {
  return Number(readFileSync(file).toString('latin1', 3, 4));
}
