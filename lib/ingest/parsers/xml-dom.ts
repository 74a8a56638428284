/**
 * XML parts of office packages (PPTX, OpenDocument, EPUB) as a DOM, through linkedom's XML mode. It never
 * fetches or expands a DTD; the zip guard has already refused any part that declares one. Tag names keep their
 * prefixes (`a:t`, `text:p`), as the formats fix them.
 */

import { DOMParser } from 'linkedom';

export function parseXml(xml: string): Document {
  return new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
}

/** Every descendant element in document order, iteratively (hostile parts nest thousands deep). */
export function descendants(root: Document | Element): Element[] {
  const out: Element[] = [];
  const stack: Element[] = Array.from(root.children ?? []).reverse();
  while (stack.length > 0) {
    const element = stack.pop();
    if (!element) break;
    out.push(element);
    const children = element.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
  }
  return out;
}

/** Every descendant element with this tag name, in document order. */
export function elementsByTag(root: Document | Element, tag: string): Element[] {
  return Array.from(root.getElementsByTagName(tag));
}

/** Whether `node` lies inside an element with tag `tag` (below `stop`, if given). */
export function hasAncestor(node: Element, tag: string, stop?: Element): boolean {
  for (let parent = node.parentElement; parent && parent !== stop; parent = parent.parentElement) {
    if (parent.tagName === tag) return true;
  }
  return false;
}

/** Whitespace runs collapsed to one space, ends trimmed. */
export function squash(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Resolves a relationship target against the folder of the part that names it (`ppt/slides/` + `../x`). */
export function resolvePartPath(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = fromPart.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}

/** Reads an OOXML relationships part into id → { target, type }. */
export function readRelationships(xml: string | undefined): Map<string, { target: string; type: string }> {
  const rels = new Map<string, { target: string; type: string }>();
  if (!xml) return rels;
  for (const rel of elementsByTag(parseXml(xml), 'Relationship')) {
    const id = rel.getAttribute('Id');
    const target = rel.getAttribute('Target');
    if (id && target) rels.set(id, { target, type: rel.getAttribute('Type') ?? '' });
  }
  return rels;
}
