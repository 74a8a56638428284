/** Bytes → text for the text formats (plain text, Markdown, CSV, HTML), tolerant of real-world encodings. */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** True when invalid UTF-8 sequences were replaced by U+FFFD. */
  replacedInvalid: boolean;
}

const SAMPLE_BYTES = 64 * 1024;

function detectBom(bytes: Uint8Array): { encoding: TextEncodingName; skip: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return null;
}

/** UTF-16 without a BOM shows up as ASCII text with every other byte zero. */
function detectBomlessUtf16(bytes: Uint8Array): TextEncodingName | null {
  const n = Math.min(bytes.length, SAMPLE_BYTES) & ~1;
  if (n < 8) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero / pairs > 0.4 && evenZero / pairs < 0.05) return 'utf-16le';
  if (evenZero / pairs > 0.4 && oddZero / pairs < 0.05) return 'utf-16be';
  return null;
}

/** True when the bytes contain at least one well-formed multi-byte UTF-8 sequence. */
function hasValidUtf8Multibyte(bytes: Uint8Array): boolean {
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] ?? 0;
    if (b < 0xc2 || b > 0xf4) continue;
    const need = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
    let ok = i + need < n;
    for (let k = 1; ok && k <= need; k++) {
      const c = bytes[i + k] ?? 0;
      ok = c >= 0x80 && c <= 0xbf;
    }
    if (ok) return true;
  }
  return false;
}

/**
 * Decodes text bytes: a BOM decides (UTF-8, UTF-16 LE/BE); BOM-less UTF-16 is recognised by its zero bytes;
 * otherwise strict UTF-8, and when that fails: windows-1252 if the bytes hold no valid multi-byte UTF-8 at all
 * (a legacy 8-bit file), else UTF-8 with invalid sequences replaced by U+FFFD. NUL characters are removed.
 * Never throws.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = detectBom(bytes);
  const encoding = bom?.encoding ?? detectBomlessUtf16(bytes);
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const body = bytes.subarray(bom?.skip ?? 0);
    const text = new TextDecoder(encoding, { fatal: false, ignoreBOM: true }).decode(body);
    return { text: stripNul(text), encoding, replacedInvalid: false };
  }
  const body = bytes.subarray(bom?.skip ?? 0);
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    return { text: stripNul(text), encoding: 'utf-8', replacedInvalid: false };
  } catch {
    if (!bom && !hasValidUtf8Multibyte(body)) {
      const text = decodeWindows1252(body);
      return { text: stripNul(text), encoding: 'windows-1252', replacedInvalid: false };
    }
    const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(body);
    return { text: stripNul(text), encoding: 'utf-8', replacedInvalid: true };
  }
}

/** windows-1252 code points for bytes 0x80-0x9F (the rest of the code page equals Latin-1). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** windows-1252 → string, by table (Node's TextDecoder may treat the label as Latin-1). */
function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) =>
    String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c.charCodeAt(0)),
  );
}

function stripNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/**
 * Why bytes do not look like text, or null when they do. Looks at the first 64 KiB: UTF-16 (BOM or BOM-less)
 * is text; otherwise more than 1% NUL bytes or more than 5% other control bytes means binary.
 */
export function binaryContentReason(bytes: Uint8Array): string | null {
  const bom = detectBom(bytes);
  if (bom?.encoding === 'utf-16le' || bom?.encoding === 'utf-16be') return null;
  if (detectBomlessUtf16(bytes)) return null;
  const n = Math.min(bytes.length, SAMPLE_BYTES);
  if (n === 0) return null;
  let nul = 0;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] ?? 0;
    if (b === 0) nul++;
    else if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
    else if (b === 0x7f) control++;
  }
  if (nul / n > 0.01) return `binary content (${Math.round((nul / n) * 100)}% NUL bytes), not text`;
  if (control / n > 0.05) return `binary content (${Math.round((control / n) * 100)}% control bytes), not text`;
  return null;
}
