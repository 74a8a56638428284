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

let folders: Record<string, string> | null = null;

/**
 * The folders pdf.js may read, by the kind it asks for; resolved on first use. Resolved from the working directory
 * on purpose: in the Next.js server bundle `createRequire(import.meta.url).resolve` is rewritten to a module id.
 */
function pdfjsFolders(): Record<string, string> {
  if (!folders) {
    const resolve = createRequire(path.join(process.cwd(), 'package.json')).resolve;
    const root = path.dirname(resolve('pdfjs-dist/package.json'));
    folders = { cMapUrl: path.join(root, 'cmaps'), standardFontDataUrl: path.join(root, 'standard_fonts') };
  }
  return folders;
}

/** pdf.js's `BinaryDataFactory` contract: `fetch({ kind, filename })` resolves to the file's bytes. */
export class LocalBinaryData {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const folder = pdfjsFolders()[kind];
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
