import type { LanguageModel } from 'ai';
import { z } from 'zod';
import { analyzeConstraints } from '@/lib/agent/constraints';
import { callStructured } from '@/lib/agent/model-call';
import { detectIntent, searchableQuestion } from '@/lib/agent/plan';
import { keyTerms } from '@/lib/agent/text';
import { MAX_TASKS, type ResearchTask } from './schema';
import { subjectWords } from './subject';

/**
 * The to-do plan of a research run: tasks the user can edit, reorder, delete from and approve; each becomes one
 * bounded agent run. Without a model the plan is the decomposition of the (refined) request: one task per topic
 * or section the request names, the two sides of a comparison plus their differences, or, for a request that
 * names one subject, that subject's overview, its specifics and its limits. A model may propose its own tasks
 * (2-6, schema-checked); if it fails the decomposition is used.
 */

export interface PlannedTask {
  title: string;
  query: string;
}

const cap = (s: string) => (s.length > 0 ? s[0]?.toUpperCase() + s.slice(1) : s);

/** "compare A and B", "A vs B", "differences between A and B" → [A, B] when both sides are clear. */
function comparedSides(question: string): [string, string] | null {
  const m =
    /\b(?:compare|comparison of|differences?\s+between|difference\s+between)\s+(.+?)\s+(?:and|with|to|vs\.?|versus)\s+(.+?)(?:[?.:;,]|$)/i.exec(
      question,
    ) ?? /(.+?)\s+(?:vs\.?|versus)\s+(.+?)(?:[?.:;,]|$)/i.exec(question);
  const a = m?.[1]?.trim();
  const b = m?.[2]?.trim();
  if (!a || !b || keyTerms(a).length === 0 || keyTerms(b).length === 0) return null;
  return [a, b];
}

/** The deterministic plan (1..MAX_TASKS tasks). `context` is the clarification answers' text, added to each query. */
export function deterministicPlan(question: string, context = ''): PlannedTask[] {
  const base = searchableQuestion(question);
  const constraints = analyzeConstraints(question);
  const suffix = context.trim().length > 0 ? ` (${context.trim()})` : '';
  const subject = subjectWords(base) || base;
  const tasks: PlannedTask[] = [];
  const add = (title: string, query: string) => {
    const key = query.toLowerCase();
    if (!tasks.some((t) => t.query.toLowerCase() === key)) tasks.push({ title, query });
  };

  for (const topic of constraints.requiredTopics) add(cap(topic), `What do the documents say about ${topic}?${suffix}`);
  for (const section of constraints.requiredSections)
    add(cap(section), `${cap(section)} of ${subject}: what do the documents state?${suffix}`);
  if (tasks.length === 0 && detectIntent(question) === 'compare') {
    const sides = comparedSides(base);
    if (sides) {
      for (const side of sides) add(cap(side), `What do the documents say about ${side}?${suffix}`);
      add('Differences', `What are the differences between ${sides[0]} and ${sides[1]}?${suffix}`);
    }
  }
  if (tasks.length === 0) {
    add('Overview', `${base}${suffix}`);
    add('Specifics', `What figures, dates, owners or steps do the documents give for ${subject}?${suffix}`);
    add(
      'Limits and exceptions',
      `What exceptions, risks or open issues do the documents note about ${subject}?${suffix}`,
    );
  }
  return tasks.slice(0, MAX_TASKS);
}

const modelPlanSchema = z.object({
  tasks: z
    .array(z.object({ title: z.string().min(2).max(120), query: z.string().min(5).max(400) }))
    .min(1)
    .max(6),
});

export interface PlanOutcome {
  tasks: PlannedTask[];
  source: 'model' | 'deterministic';
  fallback: string | null;
  modelMs: number;
}

/** The plan: the model's tasks when it answers well, else the deterministic decomposition. */
export async function researchPlan(
  question: string,
  context: string,
  model: { model: LanguageModel; timeoutMs: number; signal?: AbortSignal; now?: () => number } | null,
): Promise<PlanOutcome> {
  const fallback = deterministicPlan(question, context);
  if (!model) return { tasks: fallback, source: 'deterministic', fallback: null, modelMs: 0 };
  const outcome = await callStructured({
    model: model.model,
    instructions:
      'You plan a research run over the user’s own documents. Split the request into 2-6 independent research tasks; ' +
      'each task is one question a search agent answers from the documents with citations. Keep the user’s terms.',
    prompt: `Request: ${question}${context ? `\nThe user added: ${context}` : ''}\nA possible split:\n${fallback.map((t) => `- ${t.title}: ${t.query}`).join('\n')}`,
    schema: modelPlanSchema,
    name: 'research_plan',
    timeoutMs: model.timeoutMs,
    now: model.now ?? (() => performance.now()),
    ...(model.signal ? { signal: model.signal } : {}),
  });
  if (!outcome.ok)
    return {
      tasks: fallback,
      source: 'deterministic',
      fallback: `${outcome.reason}: ${outcome.message}`.slice(0, 300),
      modelMs: outcome.ms,
    };
  const tasks = outcome.value.tasks.map((t) => ({ title: t.title.trim(), query: t.query.trim() }));
  return { tasks, source: 'model', fallback: null, modelMs: outcome.ms };
}

/** Fresh task rows for planned tasks (ids t1, t2, … unless `ids` gives them). */
export function toTasks(
  planned: readonly PlannedTask[],
  ids?: readonly (string | undefined)[],
  /** Ids a new task must not take (a deleted task's: its log entries name it). */
  reserved: readonly string[] = [],
): ResearchTask[] {
  const used = new Set([...(ids?.filter((x): x is string => Boolean(x)) ?? []), ...reserved]);
  let next = 1;
  const freshId = () => {
    while (used.has(`t${next}`)) next++;
    used.add(`t${next}`);
    return `t${next}`;
  };
  return planned.map((t, i) => ({
    id: ids?.[i] ?? freshId(),
    title: t.title,
    query: t.query,
    order: i,
    status: 'pending',
    answer: null,
    citations: [],
    confidence: null,
    validated: false,
    trace: [],
    remediated: false,
  }));
}
