/**
 * Reference detection: "see Section 4.2", "as described in the Deployment Guide", German variants.
 * Pure regexes; what they find is resolved by follow_reference with a scoped search.
 */

export interface DetectedReference {
  type: 'section' | 'document' | 'external';
  /** "4.2" for a section, "Deployment Guide" for a document, the URL for external. */
  target: string;
  original: string;
  /** For a section of another document ("Section 4.2 of the Integration Guide"): that document's name. */
  inDocument?: string;
}

const DOCUMENT_NAME =
  '(?:[A-Z][\\w-]*\\s){0,5}(?:Guide|Manual|Handbook|Policy|Specification|Runbook|Standard|Agreement|Reference|Playbook|Procedure|Handbuch|Richtlinie)';
/** "Section 4.2 of the Integration Guide", "Abschnitt 3 des Betriebshandbuchs" style: a section in a named document. */
const SECTION_OF_DOCUMENT = new RegExp(
  `\\b(?:section|sec\\.|chapter|clause|appendix|annex|part|§)\\s*([0-9]+(?:\\.[0-9]+)*|[A-Z]\\b)\\s+(?:of|in)\\s+(?:the\\s+)?(${DOCUMENT_NAME})\\b`,
  'gi',
);

const PATTERNS: { type: DetectedReference['type']; re: RegExp }[] = [
  {
    type: 'section',
    re: /\b(?:see|refer\s+to|described\s+in|defined\s+in|per|as\s+in|cf\.?|under)\s+(?:section|sec\.|chapter|clause|appendix|annex|part|§)\s*([0-9]+(?:\.[0-9]+)*|[A-Z]\b)/gi,
  },
  { type: 'section', re: /\b(?:section|chapter|clause|appendix|annex)\s+([0-9]+(?:\.[0-9]+)+|[0-9]+)\b/gi },
  { type: 'section', re: /§\s*([0-9]+[a-z]?(?:\.[0-9]+)*)/g },
  // A lettered appendix or annex ("set out in Appendix B", "Anhang C", "annexe A"): capitalised, so not "an appendix".
  { type: 'section', re: /\b(?:Appendix|APPENDIX|Annex|ANNEX|Anhang|ANHANG|Annexe|ANNEXE)\s+([A-Z](?:\.[0-9]+)*)\b/g },
  { type: 'section', re: /\b(?:siehe|gemäß|gem\.|vgl\.)\s+(?:Abschnitt|Kapitel|Ziffer|§)\s*([0-9]+(?:\.[0-9]+)*)/gi },
  {
    type: 'document',
    re: /\b(?:as\s+described\s+in|described\s+in|see|refer\s+to|according\s+to|defined\s+in|documented\s+in|in)\s+(?:the\s+)?((?:[A-Z][\w-]*\s){0,5}(?:Guide|Manual|Handbook|Policy|Specification|Runbook|Standard|Agreement|Reference|Playbook|Procedure|Handbuch|Richtlinie))\b/g,
  },
  { type: 'document', re: /\b(?:see|in|refer\s+to)\s+["“]([^"”]{3,60})["”]/gi },
  { type: 'external', re: /\bhttps?:\/\/[^\s)>\]]+/gi },
];

/** All references in `text`, deduplicated by type and target, in order of appearance. */
export function detectReferences(text: string): DetectedReference[] {
  const found: { ref: DetectedReference; at: number }[] = [];
  const seen = new Set<string>();
  for (const { type, re } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const target = (type === 'external' ? m[0] : (m[1] ?? '')).trim();
      if (target.length === 0) continue;
      const key = `${type === 'external' ? 'external' : type}:${target.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ ref: { type, target, original: m[0].trim() }, at: m.index ?? 0 });
    }
  }
  // A section named together with its document is followed in that document.
  for (const m of text.matchAll(SECTION_OF_DOCUMENT)) {
    const target = (m[1] ?? '').trim();
    const doc = (m[2] ?? '').trim();
    const same = found.find((f) => f.ref.type === 'section' && f.ref.target.toLowerCase() === target.toLowerCase());
    if (same) same.ref = { ...same.ref, inDocument: doc };
    else found.push({ ref: { type: 'section', target, original: m[0].trim(), inDocument: doc }, at: m.index ?? 0 });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.ref);
}

/** Reads a reference the model wrote ("Section 4.2", "the Deployment Guide") into a typed reference. */
export function parseReference(raw: string): DetectedReference {
  const detected = detectReferences(raw.includes(' ') ? `see ${raw}` : raw);
  const first = detected.find((r) => r.type !== 'external') ?? detected[0];
  if (first) return { ...first, original: raw };
  const section = /^(?:section|sec\.|chapter|§)?\s*([0-9]+(?:\.[0-9]+)*)$/i.exec(raw.trim());
  if (section?.[1]) return { type: 'section', target: section[1], original: raw };
  return { type: 'document', target: raw.trim().replace(/^the\s+/i, ''), original: raw };
}
