import { z } from 'zod';
import { traceEventSchema } from '@/lib/agent/events';
import { searchFiltersSchema } from '@/lib/chat/request';
import { citationFieldsSchema } from '@/lib/domain/citation';
import { researchLogEntrySchema } from './log';

/**
 * The research run's persisted shape and its API bodies. A run goes clarifying → planning → awaiting_approval →
 * running → synthesising → done (or cancelled / failed from any step); its clarifications, plan tasks and report
 * are JSON columns of the ResearchRun row, parsed with these schemas on every read.
 */

export const RESEARCH_STATUSES = [
  'clarifying',
  'planning',
  'awaiting_approval',
  'running',
  'synthesising',
  'done',
  'cancelled',
  'failed',
] as const;
export const researchStatusSchema = z.enum(RESEARCH_STATUSES);
export type ResearchStatus = z.infer<typeof researchStatusSchema>;

/** Statuses after which nothing changes any more. */
export const FINAL_STATUSES: readonly ResearchStatus[] = ['done', 'cancelled', 'failed'];

export const MAX_CLARIFYING_QUESTIONS = 3;
export const MAX_TASKS = 8;
const MAX_TEXT = 500;
const MAX_ANSWER = 1000;

export const clarifyingQuestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  /** Why it is asked (which part of the request is open). */
  reason: z.string(),
  /** Offered answers the user may pick (may be empty: free text). */
  options: z.array(z.string()),
  answer: z.string().nullable(),
  skipped: z.boolean(),
});
export type ClarifyingQuestion = z.infer<typeof clarifyingQuestionSchema>;

/** A citation as a section keeps it (the agent's citation, numbered within its task's answer). */
export const researchCitationSchema = citationFieldsSchema;
export type ResearchCitation = z.infer<typeof researchCitationSchema>;

export const taskStatusSchema = z.enum(['pending', 'running', 'done', 'failed', 'skipped']);

export const researchTaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** What the task's agent run is asked. */
  query: z.string(),
  order: z.number().int(),
  status: taskStatusSchema,
  /** The task's gated answer (its agent run's delivered text), null until it ran. */
  answer: z.string().nullable(),
  citations: z.array(researchCitationSchema),
  confidence: z.enum(['high', 'medium', 'low']).nullable(),
  validated: z.boolean(),
  /** The task's own agent trace. */
  trace: z.array(traceEventSchema),
  /** Whether the quality check re-ran this task (its remediation pass). */
  remediated: z.boolean(),
});
export type ResearchTask = z.infer<typeof researchTaskSchema>;

export const reportSourceSchema = z.object({
  n: z.number().int().describe('The [n] marker in the report (numbered across the whole report)'),
  documentId: z.string(),
  chunkId: z.string(),
  filename: z.string(),
  page: z.number().int().nullable(),
  sheet: z.string().nullable(),
  headingPath: z.string().nullable(),
  quote: z.string(),
});

export const reportSectionSchema = z.object({
  heading: z.string(),
  taskId: z.string().nullable(),
  /** Markdown with [n] markers numbered across the report; every sentence passed the validation gate. */
  text: z.string(),
  sources: z.array(reportSourceSchema),
  validated: z.boolean(),
  confidence: z.enum(['high', 'medium', 'low']),
  quality: z.number(),
});
export type ReportSection = z.infer<typeof reportSectionSchema>;

export const researchReportSchema = z.object({
  title: z.string(),
  /** Key findings: sentences taken from the gated sections (a model may choose them; it cannot write them). */
  summary: z.string(),
  summarySource: z.enum(['model', 'extractive']),
  sections: z.array(reportSectionSchema),
  quality: z.object({
    score: z.number(),
    threshold: z.number(),
    remediatedTaskId: z.string().nullable(),
    action: z.enum(['accept', 'retry', 'keep_best']),
  }),
  extractive: z.boolean(),
});
export type ResearchReport = z.infer<typeof researchReportSchema>;

/** The run as the API answers it. */
export const researchRunSchema = z
  .object({
    id: z.string(),
    conversationId: z.string().nullable(),
    question: z.string(),
    status: researchStatusSchema,
    style: z.enum(['concise', 'detailed', 'bullet']),
    clarifications: z.array(clarifyingQuestionSchema),
    tasks: z.array(researchTaskSchema),
    report: researchReportSchema.nullable(),
    events: z
      .array(researchLogEntrySchema)
      .describe('The research-level event log, oldest first (the timeline: questions, plan, tasks, quality, report)'),
    answerId: z.string().nullable().describe('The saved answer of the report (share it with POST /api/shares)'),
    note: z.string().nullable(),
    /** Where the plan and questions came from. */
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ResearchRun' });
export type ResearchRunView = z.infer<typeof researchRunSchema>;

// ---------- request bodies ----------

export const researchStartBodySchema = z
  .object({
    question: z.string().max(20_000, 'The question is too long.'),
    style: z.enum(['concise', 'detailed', 'bullet']).default('detailed'),
    filters: searchFiltersSchema.optional(),
    /** Continue (or create, with this proposed UUID) a chat conversation; the run then shows in it. */
    conversationId: z.string().max(64).nullish(),
    /** Skip the clarifying step and go straight to the plan. */
    skipClarification: z.boolean().default(false),
  })
  .strict();
export type ResearchStartBody = z.infer<typeof researchStartBodySchema>;

export const researchAnswersBodySchema = z.union([
  z.object({ skip: z.literal(true) }).strict(),
  z
    .object({
      answers: z
        .array(z.object({ id: z.string().max(40), answer: z.string().max(MAX_ANSWER) }).strict())
        .max(MAX_CLARIFYING_QUESTIONS),
    })
    .strict(),
]);
export type ResearchAnswersBody = z.infer<typeof researchAnswersBodySchema>;

export const researchPlanBodySchema = z
  .object({
    tasks: z
      .array(
        z
          .object({
            /** An existing task's id; absent for a new task. */
            id: z.string().max(40).optional(),
            title: z.string().trim().min(1).max(MAX_TEXT),
            query: z.string().trim().min(1).max(MAX_TEXT).optional(),
          })
          .strict(),
      )
      .min(1, 'Keep at least one task.')
      .max(MAX_TASKS, `At most ${MAX_TASKS} tasks.`),
  })
  .strict();
export type ResearchPlanBody = z.infer<typeof researchPlanBodySchema>;
