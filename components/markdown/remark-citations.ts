/**
 * A remark plugin that turns citation markers such as [1] or [2, 3] in plain text into links to `#cite-N`,
 * which SafeMarkdown renders as buttons. Text inside code stays untouched.
 */

interface MdNode {
  type: string;
  value?: string;
  url?: string;
  children?: MdNode[];
}

const MARKER_RE = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

function splitText(value: string): MdNode[] | null {
  MARKER_RE.lastIndex = 0;
  if (!MARKER_RE.test(value)) return null;
  MARKER_RE.lastIndex = 0;
  const out: MdNode[] = [];
  let last = 0;
  for (const match of value.matchAll(MARKER_RE)) {
    const start = match.index ?? 0;
    if (start > last) out.push({ type: 'text', value: value.slice(last, start) });
    const numbers = (match[1] ?? '').split(',').map((n) => n.trim());
    numbers.forEach((n, i) => {
      if (i > 0) out.push({ type: 'text', value: '' });
      out.push({ type: 'link', url: `#cite-${n}`, children: [{ type: 'text', value: `[${n}]` }] });
    });
    last = start + match[0].length;
  }
  if (last < value.length) out.push({ type: 'text', value: value.slice(last) });
  return out;
}

function walk(node: MdNode): void {
  if (!node.children) return;
  if (node.type === 'link' || node.type === 'linkReference' || node.type === 'code' || node.type === 'inlineCode')
    return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && typeof child.value === 'string') {
      const parts = splitText(child.value);
      if (parts) next.push(...parts);
      else next.push(child);
    } else {
      walk(child);
      next.push(child);
    }
  }
  node.children = next;
}

export function remarkCitations() {
  return (tree: MdNode) => {
    walk(tree);
  };
}

/** The citation number of a `#cite-N` link (sanitisers may prefix the fragment), else null. */
export function citationNumber(href: string | undefined): number | null {
  const match = href ? /^#(?:user-content-)?cite-(\d{1,3})$/.exec(href) : null;
  return match?.[1] ? Number(match[1]) : null;
}
