import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The own QA set over the real documents in ../shared/data/documents (eval/qa/questions.jsonl): its schema, loader
 * and scorer. Gold answers are groups of acceptable variants; every group must appear in the answer. Gold documents
 * are groups of paths (relative to the documents folder); every group must be cited by at least one of its paths.
 */

export const QA_TYPES = [
  'number',
  'date',
  'table',
  'who',
  'what',
  'procedure',
  'cross_document',
  'unanswerable',
] as const;

const questionSchema = z
  .object({
    id: z.string().min(1),
    type: z.enum(QA_TYPES),
    question: z.string().min(3),
    answerable: z.boolean(),
    answers: z.array(z.array(z.string().min(1)).min(1)),
    documents: z.array(z.array(z.string().min(1)).min(1)).min(1),
    support: z.string().min(1),
  })
  .refine((q) => q.answerable === (q.type !== 'unanswerable'), 'type unanswerable iff answerable is false')
  .refine((q) => (q.answerable ? q.answers.length > 0 : q.answers.length === 0), 'answers only for answerables');

export type QaQuestion = z.infer<typeof questionSchema>;

export function loadQaSet(file: string): QaQuestion[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l, i) => {
      const parsed = questionSchema.safeParse(JSON.parse(l));
      if (!parsed.success) throw new Error(`${file}:${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/** Case, width, dash, quote and whitespace folding; citation markers like [3] removed. */
export function normalizeAnswerText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, ' ')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u201c\u201d\u00ab\u00bb]/g, '"')
    .replace(/\*\*|__/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const NUMERIC_GOLD = /^[-+]?\d[\d\s,.]*%?$/;

/** The value of a gold number as written: "12,553" 12553, "15,50" 15.5 (decimal comma), "7,92,756" 792756. */
export function goldNumber(text: string): number | null {
  const t = text.replace(/%$/, '').trim();
  if (!NUMERIC_GOLD.test(t)) return null;
  const sign = t.startsWith('-') ? -1 : 1;
  const body = t.replace(/^[-+]/, '').replace(/\s+/g, '');
  const decimalComma = /^\d+,\d{1,2}$/.test(body);
  const value = decimalComma ? Number(body.replace(',', '.')) : Number(body.replace(/,/g, ''));
  return Number.isFinite(value) ? sign * value : null;
}

/** Every value a number-like token can stand for (comma or dot as decimal separator, or as grouping). */
function tokenValues(token: string): number[] {
  const sign = /^[-\u2212]/.test(token) ? -1 : 1;
  const body = token.replace(/^[-\u2212]/, '').replace(/[\s\u00a0\u202f]/g, '');
  const out = new Set<number>();
  for (const candidate of [
    body.replace(/,/g, ''),
    body.replace(/\./g, '').replace(',', '.'),
    body.replace(/[.,]/g, ''),
  ]) {
    if (/^\d+(?:\.\d+)?$/.test(candidate)) out.add(sign * Number(candidate));
  }
  return [...out];
}

/** The values of every number in the text; runs separated by single spaces also count joined ("1 200 000"). */
export function numbersIn(text: string): Set<number> {
  const values = new Set<number>();
  const clean = text.replace(/\[\d+(?:\s*,\s*\d+)*\]/g, ' ');
  for (const m of clean.matchAll(/[-\u2212]?\d+(?:[.,]\d+)*(?:[ \u00a0\u202f]\d+(?:[.,]\d+)*)*/g)) {
    const parts = m[0].split(/[ \u00a0\u202f]/);
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j <= Math.min(parts.length, i + 4); j++) {
        for (const v of tokenValues(parts.slice(i, j).join(''))) values.add(v);
      }
    }
  }
  return values;
}

/** True when the answer contains the variant: by value for a pure number, else as folded text. */
export function containsVariant(answer: string, variant: string): boolean {
  const n = goldNumber(variant);
  if (n !== null) {
    for (const v of numbersIn(answer)) if (Math.abs(v - n) <= 1e-9 * Math.max(1, Math.abs(n))) return true;
    return false;
  }
  return normalizeAnswerText(answer).includes(normalizeAnswerText(variant));
}

/** Every answer group has a variant in the answer. */
export function containsGold(answer: string, groups: readonly (readonly string[])[]): boolean {
  return groups.length > 0 && groups.every((g) => g.some((v) => containsVariant(answer, v)));
}

/** Every document group has at least one path among the cited paths. */
export function citesGold(citedPaths: ReadonlySet<string>, groups: readonly (readonly string[])[]): boolean {
  return groups.every((g) => g.some((p) => citedPaths.has(p)));
}
