import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  assembleSegment,
  checksum,
  PostingsEncoder,
  SEGMENT_VERSION,
  SegmentReader,
} from '@/lib/retrieval/embedded/keyword-segment';

export interface TermPosting {
  doc: number;
  body: number;
  context: number;
}

/**
 * Writes keyword segments holding one term ('term') with given postings into a temporary folder and opens them,
 * for tests of the segment format and the search over it. `dispose` removes the folder.
 */
export function oneTermSegments(prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  let files = 0;
  return {
    /**
     * One segment of `docs` chunks (every length 5) holding 'term' with the postings (docs ascending), in the
     * postings layout of `version` (the current one unless a test asks for the previous, still read, one).
     */
    write(postings: readonly TermPosting[], docs: number, version: 2 | 3 = SEGMENT_VERSION): SegmentReader {
      const lengths = new Uint32Array(docs).fill(5);
      const encoder = new PostingsEncoder(lengths, lengths, version);
      encoder.addTerm(
        Buffer.from('term'),
        postings.map((p) => p.doc),
        postings.map((p) => (p.body | (p.context << 16)) >>> 0),
        postings.length,
      );
      const columns = {
        chunkIds: Array.from({ length: docs }, (_, i) => `c${i}`),
        bodyLength: lengths,
        contextLength: lengths,
        attributeRef: new Uint32Array(docs),
        hasVector: new Uint8Array(docs),
        attributeSets: [],
        totalBody: docs * 5,
        totalContext: docs * 5,
      };
      const { idx } = assembleSegment(columns, new Float64Array(docs + 1), [], encoder);
      const name = `seg-${files++}`;
      writeFileSync(path.join(dir, `${name}.idx`), idx);
      writeFileSync(path.join(dir, `${name}.docs`), Buffer.alloc(0));
      return SegmentReader.open(name, path.join(dir, `${name}.idx`), path.join(dir, `${name}.docs`), checksum(idx));
    },
    dispose(): void {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
