import type { LanguageModel } from 'ai';
import { z } from 'zod';
import { analyzeConstraints, type PromptConstraints } from '@/lib/agent/constraints';
import { callStructured } from '@/lib/agent/model-call';
import { detectIntent, explicitDateFilter, searchableQuestion } from '@/lib/agent/plan';
import type { BucketRef } from '@/lib/agent/ports';
import { keyTerms } from '@/lib/agent/text';
import type { CallerFilters } from '@/lib/agent/types';
import { type ClarifyingQuestion, MAX_CLARIFYING_QUESTIONS } from './schema';
import { subjectWords } from './subject';

/**
 * Clarifying questions before a research run searches anything. Without a model they come from the constraint
 * analysis and the decomposition: a request is open when it names one broad subject with no aspects (the plan
 * would be generic), when it compares without saying on what, when it spans several collections without naming
 * one, or when a broad request gives no time frame. A model, when configured, may ask its own (at most three,
 * schema-checked); if it fails the deterministic questions are used. A clear request gets no question.
 */

export interface ClarifyInput {
  question: string;
  buckets: readonly BucketRef[];
  filters: CallerFilters | undefined;
}

interface Analysis {
  constraints: PromptConstraints;
  terms: string[];
  broad: boolean;
}

function analyse(question: string): Analysis {
  const constraints = analyzeConstraints(question);
  const terms = keyTerms(searchableQuestion(question));
  const explicitParts = constraints.requiredTopics.length + constraints.requiredSections.length;
  return { constraints, terms, broad: explicitParts === 0 && terms.length <= 4 };
}

const YEAR_OR_DATE =
  /\b(?:19|20)\d{2}\b|\b(?:today|yesterday|last|this|current|recent|latest|newest|since|before|after)\b/i;

function mentionsBucket(question: string, bucket: BucketRef): boolean {
  const name = bucket.name.trim().toLowerCase();
  return name.length >= 3 && question.toLowerCase().includes(name);
}

/** The deterministic clarifying questions (0-3), most useful first. */
export function deterministicQuestions(input: ClarifyInput): ClarifyingQuestion[] {
  const { question, buckets, filters } = input;
  const a = analyse(question);
  const subject = subjectWords(searchableQuestion(question), 4) || searchableQuestion(question);
  const out: Omit<ClarifyingQuestion, 'id' | 'answer' | 'skipped'>[] = [];
  const intent = detectIntent(question);

  if (intent === 'compare' && a.constraints.requiredTopics.length < 2)
    out.push({
      question: 'What exactly should be compared, and on which criteria?',
      reason: 'The request asks for a comparison but names fewer than two things or no criteria.',
      options: [],
    });
  if (a.broad)
    out.push({
      question: `Which aspects of "${subject}" matter most to you?`,
      reason: 'The request names one broad subject and no aspects, so the plan would be generic.',
      options: [],
    });
  const scoped = Boolean(filters?.bucketIds?.length || filters?.documentIds?.length);
  if (!scoped && buckets.length >= 2 && !buckets.some((b) => mentionsBucket(question, b)))
    out.push({
      question: 'Which collections should the research cover?',
      reason: `Your documents are in ${buckets.length} buckets and the request names none.`,
      options: [...buckets.slice(0, 5).map((b) => b.name), 'All of them'],
    });
  const dated =
    Boolean(filters?.dateFrom || filters?.dateTo) ||
    YEAR_OR_DATE.test(question) ||
    Object.keys(explicitDateFilter(question)).length > 0;
  if (!dated && (a.broad || intent === 'summarize' || intent === 'list'))
    out.push({
      question: 'Which time period should the research cover?',
      reason: 'The request gives no date or period, and older documents may disagree with newer ones.',
      options: ['The most recent documents', 'All dates'],
    });
  return out
    .slice(0, MAX_CLARIFYING_QUESTIONS)
    .map((q, i) => ({ ...q, id: `q${i + 1}`, answer: null, skipped: false }));
}

const modelQuestionsSchema = z.object({
  ambiguous: z.boolean().describe('Whether the request is open enough that the answers would change the research'),
  questions: z
    .array(
      z.object({
        question: z.string().min(5).max(300),
        reason: z.string().max(300),
        options: z.array(z.string().max(100)).max(6),
      }),
    )
    .max(MAX_CLARIFYING_QUESTIONS),
});

export interface ClarifyOutcome {
  questions: ClarifyingQuestion[];
  source: 'model' | 'deterministic';
  /** Why the model's questions were not used (failure, timeout), null when they were or no model was asked. */
  fallback: string | null;
  modelMs: number;
}

/** Up to three clarifying questions: the model's when it answers well, else the deterministic ones. */
export async function clarifyingQuestions(
  input: ClarifyInput,
  model: { model: LanguageModel; timeoutMs: number; signal?: AbortSignal; now?: () => number } | null,
): Promise<ClarifyOutcome> {
  const fallback = deterministicQuestions(input);
  if (!model) return { questions: fallback, source: 'deterministic', fallback: null, modelMs: 0 };
  const candidates = fallback.map((q) => `- ${q.question} (${q.reason})`).join('\n') || '- none';
  const outcome = await callStructured({
    model: model.model,
    instructions:
      'You prepare a document research run. Decide whether the request is ambiguous enough that asking the user first would change what is searched. ' +
      `Ask at most ${MAX_CLARIFYING_QUESTIONS} short questions, only about the request itself (scope, aspects, period, criteria); none when it is clear.`,
    prompt: `Request: ${input.question}\nCollections: ${input.buckets.map((b) => b.name).join(', ') || 'none'}\nOpen points found by analysis:\n${candidates}`,
    schema: modelQuestionsSchema,
    name: 'clarifying_questions',
    timeoutMs: model.timeoutMs,
    now: model.now ?? (() => performance.now()),
    ...(model.signal ? { signal: model.signal } : {}),
  });
  if (!outcome.ok)
    return {
      questions: fallback,
      source: 'deterministic',
      fallback: `${outcome.reason}: ${outcome.message}`.slice(0, 300),
      modelMs: outcome.ms,
    };
  const questions = outcome.value.ambiguous
    ? outcome.value.questions.slice(0, MAX_CLARIFYING_QUESTIONS).map((q, i) => ({
        id: `q${i + 1}`,
        question: q.question.trim(),
        reason: q.reason.trim(),
        options: q.options.map((o) => o.trim()).filter(Boolean),
        answer: null,
        skipped: false,
      }))
    : [];
  return { questions, source: 'model', fallback: null, modelMs: outcome.ms };
}

/** The request with the user's answers appended ("… (Focus: costs; Period: 2024)"), as the plan reads it. */
export function refinedQuestion(question: string, clarifications: readonly ClarifyingQuestion[]): string {
  const answered = clarifications.filter((c) => !c.skipped && c.answer && c.answer.trim().length > 0);
  if (answered.length === 0) return question;
  return `${question.trim()} (${answered.map((c) => c.answer?.trim()).join('; ')})`;
}
