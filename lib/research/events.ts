import { z } from 'zod';
import { agentEventSchema } from '@/lib/agent/events';
import { researchLogEntrySchema } from './log';
import { researchReportSchema, researchRunSchema, researchStatusSchema } from './schema';

/**
 * The events a research run streams (POST /api/research/{id}/approve), one zod discriminated union on `type`.
 * Each task's own agent events arrive wrapped in `task_event` with the task id, so every task keeps its own trace.
 * Each entry added to the run's research-level log (lib/research/log.ts: the timeline) arrives as `log`, stamped.
 */

export const researchEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), status: researchStatusSchema, note: z.string().nullable() }),
  z.object({
    type: z.literal('task_start'),
    taskId: z.string(),
    index: z.number().int(),
    total: z.number().int(),
    title: z.string(),
    query: z.string(),
    remediation: z.boolean(),
  }),
  z.object({ type: z.literal('task_event'), taskId: z.string(), event: agentEventSchema }),
  z.object({
    type: z.literal('task_done'),
    taskId: z.string(),
    status: z.enum(['done', 'failed', 'skipped']),
    confidence: z.enum(['high', 'medium', 'low']).nullable(),
    citations: z.number().int(),
    validated: z.boolean(),
    ms: z.number(),
  }),
  z.object({
    type: z.literal('quality'),
    attempt: z.number().int(),
    score: z.number(),
    sections: z.array(z.object({ taskId: z.string().nullable(), score: z.number() })),
    action: z.enum(['accept', 'retry', 'keep_best']),
    taskId: z.string().nullable(),
  }),
  z.object({
    type: z.literal('synthesis'),
    sections: z.number().int(),
    summarySource: z.enum(['model', 'extractive']),
    reason: z.string().nullable(),
  }),
  z.object({ type: z.literal('report'), report: researchReportSchema, answerId: z.string().nullable() }),
  z.object({ type: z.literal('log'), entry: researchLogEntrySchema }),
  z.object({ type: z.literal('run'), run: researchRunSchema }),
]);
export type ResearchEvent = z.infer<typeof researchEventSchema>;
export type ResearchEmit = (event: ResearchEvent) => void;
