/**
 * RTF → text in paragraphs, tables as rows of cells joined by " | ". Written by hand: the npm RTF packages either
 * only de-encapsulate Outlook bodies (rtf-stream-parser) or are unmaintained (rtf-parser, @iarna/rtf-to-html,
 * last released 2017), and RTF's text layer is small. Iterative (no recursion), so deep nesting is harmless;
 * destinations that are not body text (font and colour tables, stylesheet, document info, pictures, objects,
 * `{\*...}` optional destinations) are skipped; \'hh bytes are decoded with the document's code page.
 */

import { IngestError } from '../errors';
import type { ParsedDocument } from '../types';
import { parseMarkdownText } from './markdown';

const SKIP_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'objdata',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'header',
  'footer',
  'headerl',
  'headerr',
  'footerl',
  'footerr',
  'fldinst',
  'filetbl',
  'revtbl',
  'mmathPr',
]);

/** Most text an RTF file may produce (guards against a tiny file repeating text via huge \bin skips). */
const MAX_OUTPUT_CHARS = 50_000_000;

interface GroupState {
  skip: boolean;
  /** Characters to skip after a \u escape (\ucN). */
  uc: number;
}

function decoderFor(codepage: number): TextDecoder {
  try {
    return new TextDecoder(codepage === 65001 ? 'utf-8' : `windows-${codepage}`);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

/** Converts RTF source (bytes as latin1, as RTF is 7-bit with escapes) to plain text. */
export function rtfToText(source: string): string {
  let decoder = decoderFor(1252);
  const out: string[] = [];
  let outLength = 0;
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, uc: 1 };
  let pendingBytes: number[] = [];
  let skipChars = 0;
  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    if (!state.skip) out.push(decoder.decode(new Uint8Array(pendingBytes)));
    pendingBytes = [];
  };
  const emit = (text: string) => {
    flushBytes();
    if (state.skip || text === '') return;
    out.push(text);
    outLength += text.length;
    if (outLength > MAX_OUTPUT_CHARS) throw new IngestError('too-large', 'RTF text exceeds the size limit');
  };
  let i = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i];
    if (ch === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      i++;
      // `{\*\dest ...}`: an optional destination a reader may ignore.
      if (source.startsWith('\\*', i)) state.skip = true;
      continue;
    }
    if (ch === '}') {
      flushBytes();
      state = stack.pop() ?? { skip: false, uc: 1 };
      i++;
      continue;
    }
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (next === "'") {
        const hex = source.slice(i + 2, i + 4);
        i += 4;
        if (skipChars > 0) {
          skipChars--;
          continue;
        }
        const byte = Number.parseInt(hex, 16);
        if (!Number.isNaN(byte) && !state.skip) pendingBytes.push(byte);
        continue;
      }
      if (/[a-zA-Z]/.test(next)) {
        const match = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(source.slice(i + 1, i + 48));
        const word = match?.[1] ?? '';
        const param = match?.[2] === undefined ? null : Number(match[2]);
        i += 1 + (match?.[0].length ?? 1);
        if (word === 'bin' && param !== null && param > 0) {
          i += param;
          continue;
        }
        if (SKIP_DESTINATIONS.has(word)) {
          flushBytes();
          state.skip = true;
          continue;
        }
        switch (word) {
          case 'ansicpg':
            if (param !== null) decoder = decoderFor(param);
            break;
          case 'uc':
            state.uc = Math.max(0, param ?? 1);
            break;
          case 'u': {
            if (param !== null) emit(String.fromCharCode(param < 0 ? param + 65536 : param));
            skipChars = state.uc;
            break;
          }
          case 'par':
          case 'sect':
          case 'page':
            emit('\n\n');
            break;
          case 'line':
            emit('\n');
            break;
          case 'tab':
            emit('\t');
            break;
          case 'cell':
            emit(' | ');
            break;
          case 'row':
            emit('\n');
            break;
          case 'emdash':
            emit('—');
            break;
          case 'endash':
            emit('–');
            break;
          case 'bullet':
            emit('•');
            break;
          case 'lquote':
            emit('‘');
            break;
          case 'rquote':
            emit('’');
            break;
          case 'ldblquote':
            emit('“');
            break;
          case 'rdblquote':
            emit('”');
            break;
          default:
            break;
        }
        continue;
      }
      // Control symbols: \\ \{ \} and \~ (non-breaking space); others (\-, \_ ...) are dropped.
      if (next === '\\' || next === '{' || next === '}') emit(next);
      else if (next === '~') emit(' ');
      else if (next === '\n' || next === '\r') emit('\n\n');
      i += 2;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      i++;
      continue;
    }
    if (skipChars > 0) {
      skipChars--;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && !'{}\\\r\n'.includes(source[end] ?? '')) end++;
    emit(source.slice(i, end));
    i = end;
  }
  flushBytes();
  return out
    .join('')
    .replace(/ \| \n/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function parseRtf(bytes: Uint8Array): ParsedDocument {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!source.trimStart().startsWith('{\\rtf')) throw new IngestError('malformed', 'malformed RTF: no {\\rtf header');
  const text = rtfToText(source);
  if (!text) throw new IngestError('no-text', 'no extractable text (the document has no text)');
  return { ...parseMarkdownText(text, 'text'), kind: 'rtf' };
}
