/**
 * The options every pdf.js document of the app is opened with. unpdf's pdf.js build points `cMapUrl` and
 * `standardFontDataUrl` at pdfjs-dist's folders as file:// URLs but fetches them with `fetch`, which cannot read
 * file:// URLs in Node: a PDF whose fonts use a predefined CMap (GBK-EUC-H and the other CJK encodings) lost its
 * text, and the 14 standard fonts had no metrics. `LocalBinaryData` reads the same files from the installed
 * pdfjs-dist package instead (never the network). The ArrayBuffer.transfer polyfill comes with it.
 */

import './array-buffer-transfer';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));

/** Folders pdf.js may read, by the kind it asks for. */
const FOLDERS: Record<string, string> = {
  cMapUrl: path.join(PDFJS_ROOT, 'cmaps'),
  standardFontDataUrl: path.join(PDFJS_ROOT, 'standard_fonts'),
};

/** pdf.js's `BinaryDataFactory` contract: `fetch({ kind, filename })` resolves to the file's bytes. */
export class LocalBinaryData {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const folder = FOLDERS[kind];
    if (!folder) throw new Error(`pdf.js asked for ${kind} data, which is not installed`);
    const file = path.resolve(folder, filename);
    // A name from a hostile PDF must not reach outside the folder.
    if (path.dirname(file) !== folder) throw new Error(`pdf.js asked for ${kind} data outside its folder`);
    return new Uint8Array(await readFile(file));
  }
}

export const PDFJS_OPTIONS = {
  verbosity: 0,
  isEvalSupported: false,
  stopAtErrors: false,
  BinaryDataFactory: LocalBinaryData,
  // Any non-empty URL: LocalBinaryData ignores it, pdf.js only checks that one is given.
  cMapUrl: 'local:cmaps/',
  cMapPacked: true,
  standardFontDataUrl: 'local:standard_fonts/',
} as const;
