/** Legacy Word (.doc, Word 97–2003 binary) → text sections, through word-extractor (body, footnotes, endnotes). */

import WordExtractor from 'word-extractor';
import { IngestError } from '../errors';
import type { ParsedDocument } from '../types';
import { parseMarkdownText } from './markdown';

export async function parseDoc(bytes: Uint8Array): Promise<ParsedDocument> {
  let text: string;
  try {
    const document = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    text = [document.getBody(), document.getFootnotes(), document.getEndnotes()]
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join('\n\n');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new IngestError('malformed', `malformed DOC: ${message.slice(0, 300)}`, { cause: error });
  }
  if (!text.trim()) throw new IngestError('no-text', 'no extractable text (the document has no text)');
  return { ...parseMarkdownText(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ' '), 'text'), kind: 'doc' };
}
