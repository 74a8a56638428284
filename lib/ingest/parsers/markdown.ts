/**
 * Markdown and plain text → sections by heading (ATX "# Title" and setext "Title\n====="), ignoring anything
 * inside fenced code blocks. Each unit's text is an exact slice of the decoded source.
 */

import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';

export interface SourceSection {
  headingPath: string[];
  /** Offsets of the section in the source text, starting at its heading line. */
  start: number;
  end: number;
  headingLevel: number;
  /** End offset of the heading line(s), or `start` when the section has no heading. */
  headingEnd: number;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_OR_QUOTE = /^ {0,3}([-*+>]|\d+[.)])(\s|$)/;

function cleanHeading(text: string): string {
  return text
    .replace(/[*_`]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits text into heading sections; text before the first heading is a section with an empty path. */
export function sectionsFromMarkdown(text: string): SourceSection[] {
  const headings: { start: number; headingEnd: number; level: number; title: string }[] = [];
  let fence: string | null = null;
  let previous: { start: number; text: string; blank: boolean; heading: boolean } | null = null;
  let pos = 0;
  const n = text.length;
  while (pos <= n) {
    let lineEnd = text.indexOf('\n', pos);
    if (lineEnd === -1) lineEnd = n;
    // Very long lines (minified data, one-line dumps) cannot be headings: skip the regexes on them.
    const line = lineEnd - pos > 400 ? null : text.slice(pos, lineEnd);
    let isHeading = false;
    if (line !== null) {
      const fenceMatch = FENCE.exec(line);
      if (fenceMatch?.[1]) {
        const marker = fenceMatch[1];
        if (fence === null) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      } else if (fence === null) {
        const atx = ATX.exec(line);
        const setext = SETEXT.exec(line);
        if (atx?.[1]) {
          const title = cleanHeading(atx[2] ?? '');
          if (title) {
            headings.push({ start: pos, headingEnd: lineEnd, level: atx[1].length, title });
            isHeading = true;
          }
        } else if (
          setext?.[1] &&
          previous &&
          !previous.blank &&
          !previous.heading &&
          !LIST_OR_QUOTE.test(previous.text) &&
          !FENCE.test(previous.text)
        ) {
          const title = cleanHeading(previous.text);
          if (title) {
            headings.push({ start: previous.start, headingEnd: lineEnd, level: setext[1][0] === '=' ? 1 : 2, title });
            isHeading = true;
          }
        }
      }
    }
    previous = { start: pos, text: line ?? 'x', blank: line !== null && line.trim() === '', heading: isHeading };
    if (lineEnd >= n) break;
    pos = lineEnd + 1;
  }

  const sections: SourceSection[] = [];
  const first = headings[0];
  if (!first || first.start > 0) {
    sections.push({ headingPath: [], start: 0, end: first ? first.start : n, headingLevel: 0, headingEnd: 0 });
  }
  const stack: { level: number; title: string }[] = [];
  headings.forEach((h, i) => {
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
    stack.push({ level: h.level, title: h.title });
    const end = headings[i + 1]?.start ?? n;
    sections.push({
      headingPath: stack.map((s) => s.title),
      start: h.start,
      end,
      headingLevel: h.level,
      headingEnd: h.headingEnd,
    });
  });
  return sections;
}

/**
 * Builds a ParsedDocument for Markdown or plain text: one unit per heading section (a heading with nothing under
 * it but its own subsections is folded into their paths). Title: the first level-1 heading (Markdown only).
 * Throws IngestError('no-text') when the text is blank.
 */
export function parseMarkdownText(text: string, kind: 'markdown' | 'text'): ParsedDocument {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (normalized.trim() === '') throw new IngestError('no-text', 'no extractable text (the file is blank)');
  const sections = sectionsFromMarkdown(normalized);
  const units: ParsedUnit[] = [];
  sections.forEach((section, i) => {
    const next = sections[i + 1];
    const body = normalized.slice(section.headingEnd, section.end);
    const headingOnly = section.headingLevel > 0 && body.trim() === '';
    if (headingOnly && next && next.headingPath.length > section.headingPath.length) return;
    const unitText = normalized.slice(section.start, section.end);
    if (unitText.trim() === '') return;
    units.push({ ordinal: units.length, page: null, sheet: null, headingPath: section.headingPath, text: unitText });
  });
  const h1 = kind === 'markdown' ? sections.find((s) => s.headingLevel === 1) : undefined;
  return {
    kind,
    title: h1?.headingPath[0] ?? null,
    units,
    pageCount: units.length,
    warnings: [],
  };
}
