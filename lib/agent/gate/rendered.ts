/**
 * The draft as a reader will see it. The chat, the share page and the API's clients render answers as markdown
 * (react-markdown with GFM, raw HTML skipped: components/markdown/safe-markdown.tsx), and rendering changes what the
 * text says: `&quot;x&quot;` shows a quote, `&#x31;&#x30;&#x30;` shows "100", `**10**00` and `10<!-- -->00` show
 * "1000". A gate that reads the source text would check other text than the reader sees, so every draft is first
 * rewritten to the markdown whose source says what its rendering shows, and that text is both checked and delivered
 * (gate/deliver.ts):
 *
 * - raw HTML becomes text: comments go with their content, the tags of a quotation (`<q>`, `<blockquote>`) become
 *   quote marks (the words are checked as the quote the model meant), and every other tag is escaped so that it
 *   shows as written (an HTML block's text, which the renderer would hide, is shown and checked too);
 * - character references (`&quot;`, `&#49;`, `&#x31;`) become the characters they show, except those that would
 *   form markup once decoded (`<`, `>`, `&`, a backslash or a backtick), which stay encoded: they show one
 *   punctuation character and carry no word or digit;
 * - emphasis, strong and strikethrough that open or close inside a word or number (`**10**00`, `1_0_00`) lose their
 *   marks: the reader sees one word;
 * - a link whose text is a citation marker (`[[1]](#source-1)`) becomes the marker.
 *
 * Code spans and code blocks are left as written (markdown shows them literally). The parse is the renderer's own
 * (mdast-util-from-markdown with the GFM extensions, as remark-parse and remark-gfm use), repeated until nothing
 * changes, so a rewrite that uncovers new markup (`&#42;&#42;10&#42;&#42;00`) is rewritten too.
 */

import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import type { Nodes, Parents } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

interface Edit {
  start: number;
  end: number;
  text: string;
}

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;
/** Characters that form markup when written bare: kept as references. */
const MARKUP = new Set(['<', '>', '&', '\\', '`']);
const WORD = /[\p{L}\p{N}]/u;
const MAX_PASSES = 64;

/** The character a reference shows (CommonMark: an invalid code point shows U+FFFD), or null if it is none. */
export function decodeReference(match: RegExpExecArray | RegExpMatchArray): string | null {
  const [, dec, hex, name] = match;
  if (name !== undefined) {
    const decoded = decodeNamedCharacterReference(name);
    return decoded === false ? null : decoded;
  }
  const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
  const invalid = code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
  return invalid ? '\uFFFD' : String.fromCodePoint(code);
}

function offsets(node: Nodes): { start: number; end: number } | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? null : { start, end };
}

/** The edits of one pass over `text` (non-overlapping, in document order). */
function editsOf(text: string): Edit[] {
  const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const edits: Edit[] = [];
  const visit = (node: Nodes) => {
    const at = offsets(node);
    if (!at) return;
    if (node.type === 'html') {
      // Every HTML node has a tag, comment or declaration, so this always changes it.
      edits.push({ start: at.start, end: at.end, text: withoutTags(text.slice(at.start, at.end)) });
      return;
    }
    if (node.type === 'text') {
      for (const m of text.slice(at.start, at.end).matchAll(REFERENCE)) {
        const shown = decodeReference(m);
        // `\&quot;` is an escaped ampersand: it shows the reference as written.
        if (shown === null || MARKUP.has(shown) || text.charAt(at.start + m.index - 1) === '\\') continue;
        edits.push({ start: at.start + m.index, end: at.start + m.index + m[0].length, text: shown });
      }
      return;
    }
    if (node.type === 'code' || node.type === 'inlineCode') return;
    // A link whose text is a citation marker (`[[1]](#source-1)`) shows "[1]": it is written as the marker, which
    // the chat shows as a citation and the gate attributes.
    if (node.type === 'link') {
      const marker = linkMarker(text, node.children, at);
      if (marker !== null) {
        edits.push({ start: at.start, end: at.end, text: marker });
        return;
      }
    }
    if ((node.type === 'emphasis' || node.type === 'strong' || node.type === 'delete') && inWord(text, at)) {
      const first = offsets(node.children[0] as Nodes);
      const last = offsets(node.children.at(-1) as Nodes);
      if (first && last) {
        edits.push({ start: at.start, end: first.start, text: '' });
        for (const child of node.children) visit(child);
        edits.push({ start: last.end, end: at.end, text: '' });
        return;
      }
    }
    if ('children' in node) for (const child of (node as Parents).children) visit(child);
  };
  visit(tree);
  return edits;
}

const COMMENT = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\?[\s\S]*?(?:\?>|$)/g;
const QUOTE_TAG = /<\/?(?:q|blockquote)(?:\s[^>]*)?>/gi;
const TAG = /<(?=\/?[A-Za-z])/g;

/**
 * Raw HTML as text: comments, declarations and processing instructions go with their content (the renderer shows
 * none of it); a quotation element's tags (`<q>`, `<blockquote>`) become a quote mark, so what it quotes is checked as
 * a quote; every other tag is escaped (`&lt;`) and shows as written. Sources quote such text often: a placeholder
 * (`lp://<dataset-name>/`), a generic type (`List<String>`), a tag in a how-to; the renderer would hide it, the
 * reader now sees it, and the gate reads it (its normalisation reads `&lt;` as `<`).
 */
function withoutTags(html: string): string {
  return html.replace(COMMENT, '').replace(QUOTE_TAG, '"').replace(TAG, '&lt;');
}

const MARKER = /^\[\d{1,3}(?:\s*,\s*\d{1,3})*\]$/;

/** The marker a link's text is (`[1]`, `[2, 3]`), or null. */
function linkMarker(text: string, children: readonly Nodes[], at: { start: number; end: number }): string | null {
  const first = children.length === 1 ? children[0] : undefined;
  if (first?.type !== 'text') return null;
  const shown = first.value.trim();
  return MARKER.test(shown) && text.charAt(at.start) === '[' ? shown : null;
}

/** Whether an emphasis node opens right after, or closes right before, a letter or digit. */
function inWord(text: string, at: { start: number; end: number }): boolean {
  return WORD.test(text.charAt(at.start - 1)) || WORD.test(text.charAt(at.end));
}

/** `text` with `edits` applied (they come in document order and never overlap: see editsOf). */
function apply(text: string, edits: readonly Edit[]): string {
  let out = '';
  let from = 0;
  for (const e of edits) {
    out += text.slice(from, e.start) + e.text;
    from = e.end;
  }
  return out + text.slice(from);
}

/** `markdown` rewritten so that its source says what its rendering shows (see the module comment). */
export function asRendered(markdown: string, maxPasses = MAX_PASSES): string {
  let text = markdown;
  // Until nothing changes. A pass removes markup (a reference shows its character, a comment or an emphasis mark
  // goes) or neutralises it (an escaped tag is text for good), so few passes are needed. A draft still changing after
  // the bound is pathological: every markup character is escaped, so it shows exactly as it is checked.
  for (let pass = 0; pass < maxPasses; pass++) {
    // Most drafts have no reference, tag, comment, emphasis mark or link: nothing to parse.
    if (!/[&<*_~]|\]\(/.test(text)) return text;
    const edits = editsOf(text);
    if (edits.length === 0) return text;
    text = apply(text, edits);
  }
  return inert(text);
}

/** `text` with every character that could form markup escaped: it renders as written. */
function inert(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[*_~`[\]\\]/g, '\\$&');
}
