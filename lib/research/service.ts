import { guardKnowledgeBase, guardQuestion } from '@/lib/agent/guard';
import { resolveLimits } from '@/lib/agent/limits';
import type { AgentDeps, CallerFilters } from '@/lib/agent/types';
import type { RunAgentFn } from '@/lib/chat/answer-run';
import { titleFromQuestion } from '@/lib/db/conversations';
import {
  createResearchRun,
  findResearchRun,
  ownsConversation,
  type ResearchRunRow,
  updateResearchRun,
} from '@/lib/db/research-runs';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';
import { clarifyingQuestions, refinedQuestion } from './clarify';
import type { ResearchEmit, ResearchEvent } from './events';
import { executeResearch } from './execute';
import { appendLog, planChanges } from './log';
import { researchPlan, toTasks } from './plan';
import {
  type ClarifyingQuestion,
  FINAL_STATUSES,
  type ResearchAnswersBody,
  type ResearchPlanBody,
  type ResearchRunView,
  type ResearchStartBody,
} from './schema';

/**
 * The research run's life cycle over the database: start (clarifying questions or straight to the plan), answer or
 * skip the questions, edit the plan, approve (runs the tasks, then the synthesis), cancel. Every method takes the
 * owner id; another owner's run answers `not_found` exactly like a missing one. State lives in the ResearchRun row,
 * so a run waiting for its owner survives reloads and restarts; a run that was executing when its process died
 * (its runner is gone: no heartbeat for `staleMs`) is put back to `awaiting_approval` with its finished tasks kept,
 * and approving it again runs the remaining ones.
 */

export interface ResearchServiceDeps {
  agentDeps: () => Promise<AgentDeps>;
  runAgent: RunAgentFn;
  /** Identifies this process's runner (a fresh one per service instance). */
  runnerId?: string;
  /** A running run whose heartbeat is older than this, and which this instance does not run, is interrupted. */
  staleMs?: number;
  heartbeatMs?: number;
  now?: () => number;
}

interface ActiveRun {
  controller: AbortController;
  listeners: Set<ResearchEmit>;
  done: Promise<ResearchRunView>;
}

export interface ResearchService {
  start(ownerId: string, body: ResearchStartBody): Promise<ResearchRunView>;
  get(ownerId: string, id: string): Promise<ResearchRunView>;
  answer(ownerId: string, id: string, body: ResearchAnswersBody): Promise<ResearchRunView>;
  editPlan(ownerId: string, id: string, body: ResearchPlanBody): Promise<ResearchRunView>;
  /** Starts the approved plan in the background; `listen` receives its events until it ends or is detached. */
  approve(
    ownerId: string,
    id: string,
    listen?: ResearchEmit,
  ): Promise<{ done: Promise<ResearchRunView>; detach: () => void }>;
  cancel(ownerId: string, id: string): Promise<ResearchRunView>;
}

const notFound = () => new AppError('not_found:agent', 'Research run not found.');
const conflict = (message: string) => new AppError('conflict:agent', message);

export function toView(row: ResearchRunRow): ResearchRunView {
  return {
    id: row.id,
    conversationId: row.conversationId,
    question: row.question,
    status: row.status,
    style: row.style,
    clarifications: row.clarifications,
    tasks: [...row.tasks].sort((a, b) => a.order - b.order),
    report: row.report,
    events: row.events,
    answerId: row.answerId,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createResearchService(deps: ResearchServiceDeps): ResearchService {
  const runnerId = deps.runnerId ?? crypto.randomUUID();
  const staleMs = deps.staleMs ?? 45_000;
  const heartbeatMs = deps.heartbeatMs ?? 10_000;
  const active = new Map<string, ActiveRun>();
  /** Runs this instance is writing a plan for (a model call may take up to `planMs`). */
  const planning = new Set<string>();

  /** The owner's run; an executing run whose runner is gone is put back to awaiting approval (resumable). */
  async function load(ownerId: string, id: string): Promise<ResearchRunRow> {
    const row = await findResearchRun({ ownerId, id });
    if (!row) throw notFound();
    // A process that died while writing the plan: the answers are kept; the questions can be sent again.
    if (row.status === 'planning' && !planning.has(row.id) && Date.now() - row.updatedAt.getTime() >= 4 * staleMs) {
      await updateResearchRun({
        ownerId,
        id,
        from: ['planning'],
        patch: { status: 'clarifying', note: 'Interrupted while planning; send your answers again.' },
      });
      const again = await findResearchRun({ ownerId, id });
      if (!again) throw notFound();
      return again;
    }
    if ((row.status === 'running' || row.status === 'synthesising') && !active.has(row.id)) {
      const beat = row.heartbeatAt?.getTime() ?? row.updatedAt.getTime();
      const gone = row.runnerId === runnerId || Date.now() - beat >= staleMs;
      if (gone) {
        const done = row.tasks.filter((t) => t.status === 'done').length;
        const tasks = row.tasks.map((t) =>
          t.status === 'running' ? { ...t, status: 'pending' as const, trace: [], answer: null } : t,
        );
        const note = `Interrupted (the server stopped) after ${done} of ${tasks.length} task(s); approve to run the remaining ones.`;
        const events = appendLog(row.events, { type: 'interrupted', done, total: tasks.length });
        await updateResearchRun({
          ownerId,
          id,
          from: ['running', 'synthesising'],
          patch: { status: 'awaiting_approval', tasks, events, note, runnerId: null, heartbeatAt: null },
        });
        const again = await findResearchRun({ ownerId, id });
        if (!again) throw notFound();
        return again;
      }
    }
    return row;
  }

  async function modelFor() {
    const agentDeps = await deps.agentDeps();
    const limits = resolveLimits(agentDeps.limits);
    const model = agentDeps.models.decision;
    return { agentDeps, limits, model: model ? { model, timeoutMs: limits.planMs, now: deps.now } : null };
  }

  async function planFor(question: string, clarifications: ClarifyingQuestion[]) {
    const { model } = await modelFor();
    const answered = clarifications.filter((c) => !c.skipped && c.answer?.trim());
    const context = answered.map((c) => c.answer?.trim()).join('; ');
    const outcome = await researchPlan(refinedQuestion(question, []), context, model);
    return { tasks: toTasks(outcome.tasks), outcome };
  }

  return {
    async start(ownerId, body) {
      const { agentDeps, limits, model } = await modelFor();
      const guard = guardQuestion(body.question, limits);
      if (!guard.ok) throw new AppError('unprocessable:agent', guard.answer);
      const kb = guardKnowledgeBase(await agentDeps.catalog.countIndexedDocuments(ownerId));
      if (kb) throw new AppError('unprocessable:agent', kb.answer);
      const question = guard.question;

      let conversationId: string | null = null;
      let newTitle: string | null = null;
      if (body.conversationId) {
        if (!isUuid(body.conversationId)) throw new AppError('bad_request:conversation', 'Invalid conversation id.');
        conversationId = body.conversationId;
        if (!(await ownsConversation({ ownerId, conversationId }))) newTitle = titleFromQuestion(question);
      }

      const filters: CallerFilters = body.filters ?? {};
      const buckets = await agentDeps.catalog.listBuckets(ownerId);
      const clarify = body.skipClarification
        ? { questions: [], source: 'deterministic' as const, fallback: null, modelMs: 0 }
        : await clarifyingQuestions({ question, buckets, filters }, model);
      const waiting = clarify.questions.length > 0;
      const planned = waiting ? null : await planFor(question, []);
      const note = [
        clarify.fallback && `Clarifying questions: ${clarify.fallback}`,
        planned?.outcome.fallback && `Plan: ${planned.outcome.fallback}`,
      ]
        .filter(Boolean)
        .join(' ');
      const events = waiting
        ? appendLog([], { type: 'questions', questions: clarify.questions.map((q) => q.question) })
        : appendLog([], {
            type: 'plan',
            tasks: planned?.tasks.map((t) => t.title) ?? [],
            fallback: planned?.outcome.fallback ?? null,
          });
      const create = (convId: string | null, title: string | null) =>
        createResearchRun({
          id: crypto.randomUUID(),
          ownerId,
          conversationId: convId,
          question,
          status: waiting ? 'clarifying' : 'awaiting_approval',
          style: body.style,
          filters,
          clarifications: clarify.questions,
          tasks: planned?.tasks ?? [],
          events,
          note: note || null,
          conversation: convId ? { newTitle: title } : null,
        });
      let row: ResearchRunRow;
      try {
        row = await create(conversationId, newTitle);
      } catch (error) {
        // A proposed conversation id that is taken (someone else's): a fresh conversation instead.
        if (!conversationId || newTitle === null) throw error;
        row = await create(crypto.randomUUID(), newTitle);
      }
      return toView(row);
    },

    async get(ownerId, id) {
      return toView(await load(ownerId, id));
    },

    async answer(ownerId, id, body) {
      const row = await load(ownerId, id);
      if (row.status !== 'clarifying') throw conflict(`The run is ${row.status}, not waiting for answers.`);
      const given = 'answers' in body ? new Map(body.answers.map((a) => [a.id, a.answer.trim()])) : new Map();
      const clarifications = row.clarifications.map((c) => {
        const answer = given.get(c.id);
        return answer ? { ...c, answer, skipped: false } : { ...c, answer: null, skipped: true };
      });
      const answered = clarifications.filter((c) => !c.skipped).length;
      const events = appendLog(row.events, {
        type: 'answers',
        answered,
        skipped: clarifications.length - answered,
      });
      if (
        !(await updateResearchRun({
          ownerId,
          id,
          from: ['clarifying'],
          patch: { status: 'planning', clarifications, events },
        }))
      )
        throw conflict('The run moved on.');
      planning.add(id);
      try {
        const { tasks, outcome } = await planFor(row.question, clarifications);
        await updateResearchRun({
          ownerId,
          id,
          from: ['planning'],
          patch: {
            status: 'awaiting_approval',
            tasks,
            events: appendLog(events, {
              type: 'plan',
              tasks: tasks.map((t) => t.title),
              fallback: outcome.fallback ?? null,
            }),
            note: outcome.fallback ? `Plan: ${outcome.fallback}` : row.note,
          },
        });
      } catch (error) {
        await updateResearchRun({ ownerId, id, from: ['planning'], patch: { status: 'clarifying' } });
        throw error;
      } finally {
        planning.delete(id);
      }
      return toView(await load(ownerId, id));
    },

    async editPlan(ownerId, id, body) {
      const row = await load(ownerId, id);
      if (row.status !== 'awaiting_approval')
        throw conflict(`The run is ${row.status}; its plan can no longer change.`);
      const existing = new Map(row.tasks.map((t) => [t.id, t]));
      const unknown = body.tasks.find((t) => t.id !== undefined && !existing.has(t.id));
      if (unknown) throw new AppError('unprocessable:agent', `No task ${unknown.id} in this plan.`);
      const fresh = toTasks(
        body.tasks.map((t) => ({ title: t.title, query: t.query ?? t.title })),
        body.tasks.map((t) => t.id),
        [...existing.keys()],
      );
      const tasks = fresh.map((t) => {
        const old = existing.get(t.id);
        // A finished task (of an interrupted run) stays finished unless its text changed.
        if (old && old.status === 'done' && old.query === t.query) return { ...old, title: t.title, order: t.order };
        return t;
      });
      const events = appendLog(row.events, {
        type: 'plan_edited',
        tasks: tasks.length,
        ...planChanges(
          [...row.tasks].sort((a, b) => a.order - b.order),
          tasks.map((t, i) => ({ ...t, id: body.tasks[i]?.id })),
        ),
      });
      if (!(await updateResearchRun({ ownerId, id, from: ['awaiting_approval'], patch: { tasks, events } })))
        throw conflict('The run moved on.');
      return toView(await load(ownerId, id));
    },

    async approve(ownerId, id, listen) {
      const row = await load(ownerId, id);
      if (row.status !== 'awaiting_approval') throw conflict(`The run is ${row.status}, not waiting for approval.`);
      if (row.tasks.length === 0) throw new AppError('unprocessable:agent', 'The plan has no task.');
      const events = appendLog(row.events, {
        type: 'approved',
        tasks: row.tasks.length,
        done: row.tasks.filter((t) => t.status === 'done').length,
      });
      const claimed = await updateResearchRun({
        ownerId,
        id,
        from: ['awaiting_approval'],
        patch: { status: 'running', runnerId, heartbeatAt: new Date(), note: null, events },
      });
      if (!claimed) throw conflict('The run moved on.');
      const controller = new AbortController();
      const listeners = new Set<ResearchEmit>(listen ? [listen] : []);
      const emit = (event: ResearchEvent) => {
        for (const l of listeners) {
          try {
            l(event);
          } catch {
            // a closed stream must not end the run
          }
        }
      };
      const beat = setInterval(() => {
        updateResearchRun({ ownerId, id, from: ['running', 'synthesising'], patch: { heartbeatAt: new Date() } })
          .then((still) => {
            if (!still) controller.abort(); // cancelled by another process
          })
          .catch(() => {});
      }, heartbeatMs);
      beat.unref?.();
      const done = (async () => {
        try {
          const approved = events[events.length - 1];
          if (approved) emit({ type: 'log', entry: approved });
          const agentDeps = await deps.agentDeps();
          await executeResearch({
            run: { ...row, status: 'running', events },
            agentDeps,
            runAgent: deps.runAgent,
            signal: controller.signal,
            emit,
            ...(deps.now ? { now: deps.now } : {}),
          });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          console.error('[research] run failed', error);
          const note = `The run failed: ${message.slice(0, 200)}`;
          const current = await findResearchRun({ ownerId, id }).catch(() => null);
          const failedLog = appendLog(current?.events ?? events, { type: 'status', status: 'failed', note });
          const saved = await updateResearchRun({
            ownerId,
            id,
            from: ['running', 'synthesising'],
            patch: { status: 'failed', note, runnerId: null, events: failedLog },
          }).catch(() => false);
          const entry = failedLog[failedLog.length - 1];
          if (saved && entry) emit({ type: 'log', entry });
          emit({ type: 'status', status: 'failed', note: 'The run failed.' });
        } finally {
          clearInterval(beat);
          active.delete(id);
        }
        const view = toView((await findResearchRun({ ownerId, id })) ?? row);
        emit({ type: 'run', run: view });
        return view;
      })();
      active.set(id, { controller, listeners, done });
      return { done, detach: () => listen && listeners.delete(listen) };
    },

    async cancel(ownerId, id) {
      const row = await load(ownerId, id);
      if (FINAL_STATUSES.includes(row.status)) return toView(row);
      const running = active.get(id);
      const cancelled = await updateResearchRun({
        ownerId,
        id,
        from: row.status === 'running' || row.status === 'synthesising' ? ['running', 'synthesising'] : [row.status],
        patch: { status: 'cancelled', note: 'Cancelled by you.', runnerId: null },
      });
      if (!cancelled) return toView(await load(ownerId, id));
      // Nothing else writes a cancelled run (the runner's writes expect running), so its log is read and extended.
      const after = await findResearchRun({ ownerId, id });
      if (after)
        await updateResearchRun({
          ownerId,
          id,
          from: ['cancelled'],
          patch: {
            events: appendLog(after.events, {
              type: 'status',
              status: 'cancelled',
              note: 'Cancelled by you.',
            }),
          },
        });
      if (running) {
        running.controller.abort();
        await running.done.catch(() => {});
      }
      return toView(await load(ownerId, id));
    },
  };
}
