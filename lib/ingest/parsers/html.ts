/** HTML → readable text in heading sections (linkedom + Readability, falling back to the body). */

import { Readability } from '@mozilla/readability';
import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import {
  bodyOf,
  dropNonContent,
  HEADING_LEVEL_ATTRIBUTE,
  inlineText,
  parseHtmlDocument,
  sectionsFromDom,
} from './html-sections';

/** Readability's article is used when it keeps at least this share of the page's text. */
const MIN_ARTICLE_SHARE = 0.25;
/** Readability's cost grows steeply with nesting depth (400 nested divs: 3.6 s); beyond these it is skipped. */
const READABILITY_MAX_DEPTH = 80;
const READABILITY_MAX_ELEMENTS = 30_000;

/** Element count and maximum nesting depth, iteratively (hostile pages nest thousands deep). */
function treeShape(root: Node): { elements: number; depth: number } {
  let elements = 0;
  let depth = 0;
  const stack: [Node, number][] = [[root, 0]];
  while (stack.length > 0) {
    const top = stack.pop();
    if (!top) break;
    const [node, level] = top;
    if (node.nodeType !== 1) continue;
    elements++;
    if (level > depth) depth = level;
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child && child.nodeType === 1) stack.push([child, level + 1]);
    }
  }
  return { elements, depth };
}

/**
 * Parses HTML without running anything: scripts, styles, noscript and templates are dropped; Readability picks
 * the main content when it keeps a fair share of the page's text (else the whole body is used, so data pages and
 * tables are not lost; skipped on pathologically deep or large trees); headings split the text into units.
 * Title: <title>, else Readability's.
 */
export function parseHtml(html: string): ParsedDocument {
  const document = parseHtmlDocument(html);
  dropNonContent(document);
  const body = bodyOf(document);
  if (!body) throw new IngestError('no-text', 'no extractable text (the HTML has no body)');
  const bodyText = inlineText(body);
  const pageTitle = (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  let sectionsRoot: Node = body;
  let articleTitle: string | null = null;
  const warnings: string[] = [];
  const shape = treeShape(body);
  const readable = shape.depth <= READABILITY_MAX_DEPTH && shape.elements <= READABILITY_MAX_ELEMENTS;
  if (!readable) warnings.push(`main-content detection skipped (${shape.elements} elements, depth ${shape.depth})`);
  if (bodyText.length > 0 && readable) {
    try {
      // Readability turns h1 into h2; the original level rides along in an attribute sectionsFromDom reads.
      for (const heading of Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6'))) {
        heading.setAttribute(HEADING_LEVEL_ATTRIBUTE, heading.nodeName.slice(1));
      }
      const article = new Readability(document.cloneNode(true) as Document, {
        charThreshold: 200,
        maxElemsToParse: READABILITY_MAX_ELEMENTS,
      }).parse();
      const articleText = (article?.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (article?.content && articleText.length >= bodyText.length * MIN_ARTICLE_SHARE) {
        const articleBody = bodyOf(parseHtmlDocument(`<!doctype html><html><body>${article.content}</body></html>`));
        if (articleBody) sectionsRoot = articleBody;
        articleTitle = article.title?.trim() || null;
      }
    } catch {
      // Readability gives up on some pages; the body is the fallback.
    }
  }
  const units: ParsedUnit[] = sectionsFromDom(sectionsRoot).map((section, ordinal) => ({
    ordinal,
    page: null,
    sheet: null,
    headingPath: section.headingPath,
    text: section.text,
  }));
  if (units.length === 0) throw new IngestError('no-text', 'no extractable text (the HTML has no visible text)');
  return { kind: 'html', title: pageTitle || articleTitle, units, pageCount: units.length, warnings };
}
