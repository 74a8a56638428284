/**
 * Checks a ZIP container (DOCX, XLSX) before any parser inflates it: entry count and declared sizes from the
 * central directory, a hard cap on bytes actually inflated, and no DTD / entity declarations in XML parts.
 */

import yauzl from 'yauzl';
import { IngestError } from './errors';

export interface ZipLimits {
  /** Most entries a container may list (default 10,000). */
  maxEntries: number;
  /** Most bytes all entries may declare uncompressed, and most bytes the XML scan may inflate (default 512 MiB). */
  maxTotalUncompressedBytes: number;
  /** Most bytes one entry may declare uncompressed (default 256 MiB). */
  maxEntryUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio for entries over 1 MiB (default 200; real XML rarely passes 30). */
  maxCompressionRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalUncompressedBytes: 512 * 1024 * 1024,
  maxEntryUncompressedBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 200,
};

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

export interface ZipInspection {
  entries: ZipEntryInfo[];
  /** Text of the parts asked for with `keepText` (UTF-8). */
  texts: Map<string, string>;
  /** Bytes of the entries asked for with `keepBytes`. */
  files: Map<string, Uint8Array>;
}

/** Entry names to keep: a list of exact names or a predicate. */
export type EntrySelector = readonly string[] | ((name: string) => boolean);

function selector(select: EntrySelector | undefined): (name: string) => boolean {
  if (!select) return () => false;
  if (typeof select === 'function') return select;
  const names = new Set(select);
  return (name) => names.has(name);
}

function openZip(bytes: Uint8Array): Promise<yauzl.ZipFile> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (err, zipfile) => {
        if (err) reject(new IngestError('malformed', `malformed ZIP container: ${err.message}`, { cause: err }));
        else resolve(zipfile);
      },
    );
  });
}

/** Lists a container's entries from its central directory without inflating anything. */
export async function listZipEntries(bytes: Uint8Array): Promise<ZipEntryInfo[]> {
  const zip = await openZip(bytes);
  try {
    return await new Promise<ZipEntryInfo[]>((resolve, reject) => {
      const entries: ZipEntryInfo[] = [];
      if (zip.entryCount > DEFAULT_ZIP_LIMITS.maxEntries) {
        reject(zipBomb(`${zip.entryCount} entries (limit ${DEFAULT_ZIP_LIMITS.maxEntries})`));
        return;
      }
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({
          name: entry.fileName,
          compressedSize: entry.compressedSize,
          uncompressedSize: entry.uncompressedSize,
        });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', (err: Error) =>
        reject(new IngestError('malformed', `malformed ZIP container: ${err.message}`, { cause: err })),
      );
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

function zipBomb(detail: string): IngestError {
  return new IngestError('zip-bomb', `refused: archive looks like a zip bomb (${detail})`);
}

const XML_PART = /\.(xml|rels|vml|opf)$/i;
const FORBIDDEN = ['<!DOCTYPE', '<!ENTITY'].flatMap((marker) => [
  Buffer.from(marker, 'latin1'),
  Buffer.from(marker, 'utf16le'),
  Buffer.from(Buffer.from(marker, 'utf16le').swap16()),
]);
const TAIL = Math.max(...FORBIDDEN.map((m) => m.length));

function findForbidden(chunk: Buffer): boolean {
  return FORBIDDEN.some((marker) => chunk.includes(marker));
}

/**
 * Refuses a container that is a zip bomb (too many entries, declared sizes or compression ratios over the
 * limits, or more bytes inflated than declared) or whose XML parts declare a DTD or entities (billion-laughs
 * and external-entity attacks are refused, never expanded). Inflates every entry once, streaming, under the caps,
 * keeping only the text of XML parts named in `keepText`.
 */
export async function inspectZip(
  bytes: Uint8Array,
  options: {
    limits?: Partial<ZipLimits>;
    keepText?: EntrySelector;
    keepBytes?: EntrySelector;
    /** Refuse XML parts that declare a DTD or entities (default true; false for plain archives, whose members are parsed on their own). */
    scanXml?: boolean;
  } = {},
): Promise<ZipInspection> {
  const limits: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const keepText = selector(options.keepText);
  const keepBytes = selector(options.keepBytes);
  const zip = await openZip(bytes);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw zipBomb(`${zip.entryCount} entries (limit ${limits.maxEntries})`);
  }
  const entries: ZipEntryInfo[] = [];
  const texts = new Map<string, string>();
  const files = new Map<string, Uint8Array>();
  let declaredTotal = 0;
  let inflatedTotal = 0;

  const scanEntry = (entry: yauzl.Entry, isXml: boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) {
          reject(new IngestError('malformed', `malformed ZIP entry ${entry.fileName}: ${err.message}`, { cause: err }));
          return;
        }
        const kept: Buffer[] = [];
        const keep = keepText(entry.fileName) || keepBytes(entry.fileName);
        let previousTail: Buffer = Buffer.alloc(0);
        stream.on('data', (data: Buffer) => {
          inflatedTotal += data.length;
          if (inflatedTotal > limits.maxTotalUncompressedBytes) {
            stream.destroy(zipBomb(`more than ${limits.maxTotalUncompressedBytes} bytes inflated`));
            return;
          }
          if (!isXml) {
            if (keep) kept.push(data);
            return;
          }
          const window = previousTail.length > 0 ? Buffer.concat([previousTail, data]) : data;
          if (isXml && findForbidden(window)) {
            stream.destroy(
              new IngestError(
                'xml-entities',
                `refused: XML part ${entry.fileName} declares a DTD or entities (entity expansion is never performed)`,
              ),
            );
            return;
          }
          previousTail = Buffer.from(window.subarray(Math.max(0, window.length - TAIL)));
          if (keep) kept.push(data);
        });
        stream.on('error', (e: Error) => {
          if (e instanceof IngestError) reject(e);
          else
            reject(new IngestError('malformed', `malformed ZIP entry ${entry.fileName}: ${e.message}`, { cause: e }));
        });
        stream.on('end', () => {
          if (keep) {
            const all = Buffer.concat(kept);
            if (keepText(entry.fileName)) texts.set(entry.fileName, all.toString('utf8'));
            if (keepBytes(entry.fileName)) files.set(entry.fileName, new Uint8Array(all));
          }
          resolve();
        });
      });
    });

  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({
          name: entry.fileName,
          compressedSize: entry.compressedSize,
          uncompressedSize: entry.uncompressedSize,
        });
        if (entry.isEncrypted()) {
          reject(new IngestError('password-protected', 'password-protected'));
          return;
        }
        declaredTotal += entry.uncompressedSize;
        if (entry.uncompressedSize > limits.maxEntryUncompressedBytes) {
          reject(zipBomb(`entry ${entry.fileName} declares ${entry.uncompressedSize} bytes`));
          return;
        }
        if (declaredTotal > limits.maxTotalUncompressedBytes) {
          reject(zipBomb(`entries declare more than ${limits.maxTotalUncompressedBytes} bytes in total`));
          return;
        }
        const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
        if (entry.uncompressedSize > 1024 * 1024 && ratio > limits.maxCompressionRatio) {
          reject(zipBomb(`entry ${entry.fileName} has compression ratio ${Math.round(ratio)}:1`));
          return;
        }
        const isDirectory = entry.fileName.endsWith('/');
        if (isDirectory) {
          zip.readEntry();
          return;
        }
        // Every entry is inflated once here (counted, not kept) so that sizes a header lies about are caught by
        // yauzl's size validation and the total cap before a parser's own unzip library inflates them.
        scanEntry(entry, options.scanXml !== false && XML_PART.test(entry.fileName)).then(
          () => zip.readEntry(),
          reject,
        );
      });
      zip.on('end', () => resolve());
      zip.on('error', (err: Error) =>
        reject(new IngestError('malformed', `malformed ZIP container: ${err.message}`, { cause: err })),
      );
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { entries, texts, files };
}

/** Reads `<dc:title>` from an OOXML core-properties part, or null. */
export function titleFromCoreProperties(xml: string | undefined): string | null {
  if (!xml) return null;
  const match = /<dc:title(?:\s[^>]*)?>([\s\S]*?)<\/dc:title>/.exec(xml);
  const raw = match?.[1];
  if (!raw) return null;
  const title = decodeXmlEntities(raw).replace(/\s+/g, ' ').trim();
  return title.length > 0 ? title : null;
}

function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, name: string) => {
    if (name === 'amp') return '&';
    if (name === 'lt') return '<';
    if (name === 'gt') return '>';
    if (name === 'quot') return '"';
    if (name === 'apos') return "'";
    const code = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Reads one small entry (at most `maxBytes` inflated) as UTF-8 text, or null when it is missing or too large. */
export async function readSmallZipEntry(bytes: Uint8Array, name: string, maxBytes = 4096): Promise<string | null> {
  const zip = await openZip(bytes);
  try {
    return await new Promise<string | null>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) {
          zip.readEntry();
          return;
        }
        if (entry.uncompressedSize > maxBytes || entry.isEncrypted()) {
          resolve(null);
          return;
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err) {
            resolve(null);
            return;
          }
          const parts: Buffer[] = [];
          let size = 0;
          stream.on('data', (data: Buffer) => {
            size += data.length;
            if (size > maxBytes) stream.destroy();
            else parts.push(data);
          });
          stream.on('error', () => resolve(null));
          stream.on('close', () => resolve(size > maxBytes ? null : Buffer.concat(parts).toString('utf8')));
        });
      });
      zip.on('end', () => resolve(null));
      zip.on('error', (err: Error) =>
        reject(new IngestError('malformed', `malformed ZIP container: ${err.message}`, { cause: err })),
      );
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
