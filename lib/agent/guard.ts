import { isInjectedQuestion } from './injection';
import type { AgentLimits } from './limits';

/**
 * Stage 1: decide whether a question may go on. A refusal carries the user-facing answer and one
 * safety flag; it costs no model call and no search.
 */

export type GuardVerdict =
  | { ok: true; question: string }
  | { ok: false; answer: string; safetyFlags: string[]; reason: string };

export const GUARD_ANSWERS = {
  empty: 'Please type a question about your documents.',
  tooLong: (max: number) => `The question is too long (more than ${max} characters). Please shorten it.`,
  tooShort: 'Could you ask for more detail? The question is too short to search your documents for.',
  injection: 'I cannot process this question as it contains potentially unsafe patterns.',
  emptyKnowledgeBase: 'No documents have been uploaded yet. Please upload documents before asking questions.',
} as const;

/** Han, kana and Hangul: one character says about as much as a short word of a Latin script. */
const SYLLABIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * The question's length for the too-short check, in Latin-script characters: a Han, kana or Hangul character counts
 * twice ("白细胞计数是多少？", nine characters, asks as much as "What is the WBC count?").
 */
export function questionLength(question: string): number {
  return question.length + (question.match(SYLLABIC)?.length ?? 0);
}

/** Checks length bounds and injection patterns. Pure and synchronous. */
export function guardQuestion(
  rawQuestion: string,
  limits: Pick<AgentLimits, 'minQuestionChars' | 'maxQuestionChars'>,
): GuardVerdict {
  const question = rawQuestion.replace(/\s+/g, ' ').trim();
  if (question.length === 0)
    return { ok: false, answer: GUARD_ANSWERS.empty, safetyFlags: ['empty_question'], reason: 'empty' };
  if (question.length > limits.maxQuestionChars) {
    return {
      ok: false,
      answer: GUARD_ANSWERS.tooLong(limits.maxQuestionChars),
      safetyFlags: ['question_too_long'],
      reason: 'too_long',
    };
  }
  if (isInjectedQuestion(rawQuestion)) {
    return {
      ok: false,
      answer: GUARD_ANSWERS.injection,
      safetyFlags: ['prompt_injection'],
      reason: 'prompt_injection',
    };
  }
  if (questionLength(question) < limits.minQuestionChars) {
    return { ok: false, answer: GUARD_ANSWERS.tooShort, safetyFlags: ['question_too_short'], reason: 'too_short' };
  }
  return { ok: true, question };
}

/** The empty-knowledge-base refusal, when the owner has no INDEXED document. */
export function guardKnowledgeBase(indexedDocuments: number): Exclude<GuardVerdict, { ok: true }> | null {
  if (indexedDocuments > 0) return null;
  return {
    ok: false,
    answer: GUARD_ANSWERS.emptyKnowledgeBase,
    safetyFlags: ['empty_knowledge_base'],
    reason: 'empty_knowledge_base',
  };
}
