/** HTML → readable text in heading sections (linkedom + Readability, falling back to the body). */

import { Readability } from '@mozilla/readability';
import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import { dropNonContent, inlineText, parseHtmlDocument, sectionsFromDom } from './html-sections';

/** Readability's article is used when it keeps at least this share of the page's text. */
const MIN_ARTICLE_SHARE = 0.25;

/**
 * Parses HTML without running anything: scripts, styles, noscript and templates are dropped; Readability picks
 * the main content when it keeps a fair share of the page's text (else the whole body is used, so data pages and
 * tables are not lost); headings split the text into units. Title: <title>, else Readability's.
 */
export function parseHtml(html: string): ParsedDocument {
  const document = parseHtmlDocument(html);
  dropNonContent(document);
  const body = document.body ?? document.documentElement;
  if (!body) throw new IngestError('no-text', 'no extractable text (the HTML has no body)');
  const bodyText = inlineText(body);
  const pageTitle = (document.title ?? '').replace(/\s+/g, ' ').trim();
  let sectionsRoot: Node = body;
  let articleTitle: string | null = null;
  if (bodyText.length > 0) {
    try {
      const article = new Readability(document.cloneNode(true) as Document, { charThreshold: 200 }).parse();
      const articleText = (article?.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (article?.content && articleText.length >= bodyText.length * MIN_ARTICLE_SHARE) {
        const articleDocument = parseHtmlDocument(`<!doctype html><html><body>${article.content}</body></html>`);
        sectionsRoot = articleDocument.body;
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
  return { kind: 'html', title: pageTitle || articleTitle, units, pageCount: units.length, warnings: [] };
}
