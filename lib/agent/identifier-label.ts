import { analyze } from '@/lib/retrieval/analyzer';
import { holdsCode } from './asked-codes';

/**
 * The common noun a question puts before an identifier to say what kind of thing it is: "case" in "the incident in
 * case 150109-DSP-Milw-505", "grade" in "steel grade SNB22-3", "precinct" in "precinct 0050003A". An identifier is a
 * code mixing letters and digits, or digits joined by hyphens or slashes (not a plain number or a year: "2015
 * checks" counts, it labels nothing). The passage that holds the identifier seldom repeats its label ("Grade : |
 * SNB22-3" does, "Date of Incident: 01/09/2015" under a form titled by the case number does not), so the label is
 * no attribute the answer must say, once the evidence holds the identifier itself.
 */
const IDENTIFIER =
  /^(?=[\p{L}\p{N}/-]*\d)(?:(?=[\p{L}\p{N}/-]*\p{L})[\p{L}\p{N}]+(?:[/-][\p{L}\p{N}]+)*|\d+(?:[/-]\d+)+)$/u;

/** A lower-case noun that may label an identifier (letters only, three or more). */
const LABEL = /^\p{Ll}{3,}$/u;

/** Each identifier the question gives, with the analysed terms of the lower-case word before it. */
export function identifierLabels(question: string): { identifier: string; label: string[] }[] {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}/-]*/gu) ?? [];
  const out: { identifier: string; label: string[] }[] = [];
  words.forEach((w, i) => {
    const before = words[i - 1];
    if (!before || !IDENTIFIER.test(w) || !LABEL.test(before)) return;
    const label = analyze(before);
    if (label.length > 0) out.push({ identifier: w, label });
  });
  return out;
}

/**
 * The label terms of the question's identifiers that `text` (the evidence's chunks, read with their titles and file
 * names) holds: those labels need not be said by the answer.
 */
export function labelsOfHeldIdentifiers(question: string, text: string): Set<string> {
  const out = new Set<string>();
  for (const { identifier, label } of identifierLabels(question))
    if (holdsCode(text, identifier)) for (const t of label) out.add(t);
  return out;
}
