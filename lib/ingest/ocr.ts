/**
 * OCR with tesseract.js (Tesseract's LSTM engine compiled to WebAssembly), run inside the sandboxed parse worker.
 * The language data comes from the `@tesseract.js-data/<lang>` packages installed with the app: tesseract.js is
 * pointed at their folder on disk (a local `langPath`, which it reads with fs) and never at a URL, and it keeps
 * no cache (`cacheMethod: 'none'`), so OCR never touches the network nor writes files. Bounds: a page cap and a
 * time budget per document, a pixel cap per page image, and the sandbox's own timeout, which terminates the
 * parse worker and the OCR worker thread inside it.
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { IngestError } from './errors';

export interface OcrOptions {
  /** OCR scanned pages and images at all (default true). */
  enabled?: boolean;
  /** Tesseract language codes whose `@tesseract.js-data/<code>` package is installed (default ['eng']). */
  languages?: string[];
  /** Most pages of one document recognised (default 40); later pages are reported in a warning. */
  maxPages?: number;
  /** Time budget for OCR in one document, in ms (default 80 s); pages past it are reported in a warning. */
  budgetMs?: number;
  /** Largest page image handed to Tesseract, in pixels; larger renders and images are scaled down (default 6 MP). */
  maxPixels?: number;
  /** Resolution scanned PDF pages are rendered at (default 200 dpi, capped by maxPixels). */
  dpi?: number;
  /** Pages whose mean word confidence (0..100) is below this are reported and not indexed (default 45). */
  minConfidence?: number;
  /**
   * Languages tried one at a time on a page whose words came out under `minConfidence` with `languages` (a page in
   * another script reads as low-confidence noise): the most confident reading is kept. Codes whose data package
   * is not installed are skipped (default: none).
   */
  fallbackLanguages?: string[];
}

export const DEFAULT_OCR_OPTIONS: Required<OcrOptions> = {
  enabled: true,
  languages: ['eng'],
  maxPages: 40,
  budgetMs: 80_000,
  maxPixels: 6_000_000,
  dpi: 200,
  minConfidence: 45,
  fallbackLanguages: [],
};

export function resolveOcrOptions(options: OcrOptions | undefined): Required<OcrOptions> {
  return { ...DEFAULT_OCR_OPTIONS, ...options };
}

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0..100 (0 when no word was found). */
  confidence: number;
  /** Recognised words. */
  words: number;
}

const require = createRequire(import.meta.url);
/** The LSTM-only "best_int" models: the engine we run (OEM 1) needs nothing else and they load fastest. */
const MODEL_FOLDER = '4.0.0_best_int';

/** Folder holding `<code>.traineddata.gz` of an installed language package, or null when it is not installed. */
export function installedLanguageFolder(code: string): string | null {
  if (!/^[a-z]{3}(_[a-z]+)?$/.test(code)) return null;
  try {
    const folder = path.join(path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), MODEL_FOLDER);
    return existsSync(path.join(folder, `${code}.traineddata.gz`)) ? folder : null;
  } catch {
    return null;
  }
}

function linkTarget(link: string): string | null {
  try {
    return readlinkSync(link);
  } catch {
    return null;
  }
}

/** One folder with every requested language: the package's own for one language, else a folder of links. */
function languageFolder(languages: readonly string[]): string {
  const folders = languages.map((code) => {
    const folder = installedLanguageFolder(code);
    if (!folder)
      throw new IngestError('internal', `OCR language "${code}" is not installed (@tesseract.js-data/${code})`);
    return { code, folder };
  });
  const only = folders[0];
  if (folders.length === 1 && only) return only.folder;
  // One folder per set of installs (another checkout's links never point here), and a link that is missing,
  // dangling or pointing elsewhere is made again.
  const installs = createHash('sha256')
    .update(folders.map((f) => f.folder).join('\0'))
    .digest('hex')
    .slice(0, 12);
  const combined = path.join(os.tmpdir(), `docuchat-tessdata-${languages.join('+')}-${installs}`);
  mkdirSync(combined, { recursive: true });
  for (const { code, folder } of folders) {
    const link = path.join(combined, `${code}.traineddata.gz`);
    const target = path.join(folder, `${code}.traineddata.gz`);
    if (linkTarget(link) === target && existsSync(link)) continue;
    rmSync(link, { force: true });
    try {
      symlinkSync(target, link);
    } catch (error) {
      // another process made the same link at the same moment
      if (linkTarget(link) !== target) throw error;
    }
  }
  return combined;
}

/** LSTM only: Tesseract's OEM.LSTM_ONLY. */
const OEM_LSTM_ONLY = 1;

/**
 * The arguments handed to tesseract.js's createWorker: a local folder as langPath (read from disk, never
 * fetched), gzip data, no cache reads or writes. Exported so a test can assert that no URL is ever involved.
 */
export function ocrWorkerSettings(languages: readonly string[]): {
  langs: string;
  oem: number;
  options: { langPath: string; cacheMethod: 'none'; gzip: true; logger: () => void };
} {
  return {
    langs: languages.join('+'),
    oem: OEM_LSTM_ONLY,
    options: {
      langPath: languageFolder(languages),
      cacheMethod: 'none',
      gzip: true,
      logger: () => undefined,
    },
  };
}

type TesseractWorker = Awaited<ReturnType<typeof import('tesseract.js')['createWorker']>>;
/**
 * Tesseract workers of this parse worker, one per language set, most recently used last. A document whose pages go
 * to the fallback language alternates between two sets page by page; one cached worker reloaded a model (and the
 * WebAssembly engine) at every switch, two per page.
 */
const cached = new Map<string, Promise<TesseractWorker>>();
/** Language sets kept loaded at once (the configured languages and up to two fallbacks). */
const MAX_CACHED_WORKERS = 3;

/** A Tesseract worker for these languages, created once per parse worker (loading a model costs ~0.5-1.5 s). */
async function workerFor(languages: readonly string[]): Promise<TesseractWorker> {
  const key = languages.join('+');
  const known = cached.get(key);
  if (known) {
    cached.delete(key);
    cached.set(key, known);
    return known;
  }
  while (cached.size >= MAX_CACHED_WORKERS) {
    const [oldest, old] = cached.entries().next().value as [string, Promise<TesseractWorker>];
    cached.delete(oldest);
    void old.then((w) => w.terminate()).catch(() => undefined);
  }
  const settings = ocrWorkerSettings(languages);
  const { createWorker } = await import('tesseract.js');
  const worker = createWorker(settings.langs, settings.oem, settings.options);
  cached.set(key, worker);
  worker.catch(() => {
    if (cached.get(key) === worker) cached.delete(key);
  });
  return worker;
}

/** Terminates the cached Tesseract workers (tests and benchmarks). */
export async function shutdownOcr(): Promise<void> {
  const workers = [...cached.values()];
  cached.clear();
  await Promise.all(workers.map(async (w) => (await w.catch(() => null))?.terminate()));
}

function cleanOcrText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// Han, kana and CJK punctuation (fullwidth forms included); Hangul is left alone (Korean writes spaces).
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef';
const CJK_GAP = new RegExp(`(?<=[${CJK}])[ \\t]+(?=[${CJK}])`, 'gu');

/** Tesseract separates every Chinese or Japanese word (often every character) with a space the page does not have. */
export function joinCjk(text: string): string {
  return text.replace(CJK_GAP, '');
}

/** Recognises one image (PNG, JPEG, TIFF, WebP, BMP, GIF or PNM bytes) with the given languages. */
export async function recognizeImage(image: Uint8Array, languages: readonly string[]): Promise<OcrResult> {
  const worker = await workerFor(languages);
  const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  const text = cleanOcrText(data.text ?? '');
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return { text: joinCjk(text), confidence: words > 0 ? Math.round(data.confidence ?? 0) : 0, words };
}

const SCRIPTS = [
  'Latin',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Cyrillic',
  'Greek',
  'Arabic',
  'Hebrew',
  'Devanagari',
  'Thai',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((name) => ({ name, pattern: new RegExp(`\\p{Script=${name}}`, 'gu') }));

/**
 * The script most of a text's letters are written in (Hiragana and Katakana count as Han: one Japanese page mixes
 * them), "other" for letters in none of the scripts listed, null for a text without letters.
 */
export function dominantScript(text: string): string | null {
  const counts = new Map<string, number>();
  let letters = 0;
  for (const { name, pattern } of SCRIPT_PATTERNS) {
    const n = text.match(pattern)?.length ?? 0;
    const script = name === 'Hiragana' || name === 'Katakana' ? 'Han' : name;
    counts.set(script, (counts.get(script) ?? 0) + n);
    letters += n;
  }
  const other = (text.match(/\p{L}/gu)?.length ?? 0) - letters;
  if (other > 0) counts.set('other', other);
  let best: string | null = null;
  let most = 0;
  for (const [script, n] of counts) {
    if (n > most) {
      best = script;
      most = n;
    }
  }
  return best;
}

/**
 * What the pages of one document taught about its script: the fallback language that read a page the configured
 * languages could not (its words mostly in a script the configured languages' reading of that page was not in).
 * The next pages of the document try that language first.
 */
export interface OcrDocumentMemory {
  learned: { language: string; script: string } | null;
}

export function newOcrDocumentMemory(): OcrDocumentMemory {
  return { learned: null };
}

type Reader = (languages: readonly string[]) => Promise<OcrResult>;

/**
 * The reading a page gets: the configured languages first and, when their words come out under the confidence
 * threshold, each installed fallback language in turn; the most confident reading wins (ties keep the first).
 *
 * With a document memory, a page after one that the fallback language read in another script (a Chinese scan:
 * English reads it as low-confidence Latin noise) is read with that fallback first, and that reading is kept
 * without the configured languages' pass when it is confident and still mostly in that script: the configured
 * languages cannot write that script, so their reading of such a page is noise (on a Chinese scan the English pass
 * was half of the page's OCR time). Any other outcome (a page in the document's main script, or one nothing reads)
 * falls back to the order above, with the reading already made re-used, and clears the memory.
 */
export async function chooseReading(
  read: Reader,
  ocr: Pick<Required<OcrOptions>, 'languages' | 'fallbackLanguages' | 'minConfidence'>,
  memory?: OcrDocumentMemory,
): Promise<OcrResult> {
  const readings = new Map<string, OcrResult>();
  const learned = memory?.learned;
  if (memory && learned && ocr.fallbackLanguages.includes(learned.language)) {
    const first = await read([learned.language]);
    if (first.words > 0 && first.confidence >= ocr.minConfidence && dominantScript(first.text) === learned.script)
      return first;
    readings.set(learned.language, first);
    memory.learned = null;
  }
  const primary = await read(ocr.languages);
  let best = primary;
  if (best.words === 0 || best.confidence >= ocr.minConfidence) return best;
  for (const code of ocr.fallbackLanguages) {
    if (ocr.languages.includes(code) || !installedLanguageFolder(code)) continue;
    const other = readings.get(code) ?? (await read([code]));
    if (other.words > 0 && other.confidence > best.confidence) best = other;
    if (best.confidence >= ocr.minConfidence) {
      // learnt only from a page the configured languages read as letters of another script (not from a page where
      // they found nothing to compare with)
      const script = dominantScript(best.text);
      const primaryScript = dominantScript(primary.text);
      if (memory && best === other && script !== null && primaryScript !== null && script !== primaryScript)
        memory.learned = { language: code, script };
      break;
    }
  }
  return best;
}

/**
 * Recognises one image with the configured languages and, when its words come out under the confidence threshold,
 * with each installed fallback language too (see chooseReading; `memory` carries one document's script across its
 * pages).
 */
export async function recognizeWithFallback(
  image: Uint8Array,
  ocr: Pick<Required<OcrOptions>, 'languages' | 'fallbackLanguages' | 'minConfidence'>,
  memory?: OcrDocumentMemory,
): Promise<OcrResult> {
  return chooseReading((languages) => recognizeImage(image, languages), ocr, memory);
}

/** A short warning for a page or image whose OCR confidence is under the threshold (its text is not indexed). */
export function lowConfidenceWarning(where: string, result: OcrResult, minConfidence: number): string {
  return `${where}: OCR confidence ${result.confidence}% is below ${minConfidence}%; its text was not indexed`;
}
