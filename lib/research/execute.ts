import { resolveLimits } from '@/lib/agent/limits';
import { searchableQuestion } from '@/lib/agent/plan';
import type { AgentDeps, CallerFilters, Confidence } from '@/lib/agent/types';
import type { RunAgentFn } from '@/lib/chat/answer-run';
import { searchFiltersSchema } from '@/lib/chat/request';
import {
  type ResearchRunPatch,
  type ResearchRunRow,
  saveResearchAnswer,
  updateResearchRun,
} from '@/lib/db/research-runs';
import type { ResearchEmit } from './events';
import { appendLog, type ResearchLogEntry, type ResearchLogInput } from './log';
import { keyFindings, numberSections, reportMarkdown, sectionQuality } from './report';
import type { ResearchReport, ResearchTask } from './schema';

/**
 * Runs an approved plan: each pending task as its own bounded agent run (runAgent with the configured limits, its
 * own trace), saved after each task; then the synthesis (sections from the gated task answers, key findings), the
 * quality check with at most one remediation pass (the weakest section's task runs once more, refocused on the
 * research question; the better of the two is kept), and the report saved as a shareable answer. A cancelled run
 * (its row left `running`) stops at the next step and writes nothing more.
 */

class RunMovedOn extends Error {}

export interface ExecuteArgs {
  run: ResearchRunRow;
  agentDeps: AgentDeps;
  runAgent: RunAgentFn;
  signal: AbortSignal;
  emit: ResearchEmit;
  now?: () => number;
}

function filtersOf(raw: Record<string, unknown>): CallerFilters | undefined {
  const parsed = searchFiltersSchema.safeParse(raw);
  return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : undefined;
}

export async function executeResearch(args: ExecuteArgs): Promise<void> {
  const { run, agentDeps, signal, emit } = args;
  const now = args.now ?? (() => performance.now());
  const { ownerId, id } = run;
  const limits = resolveLimits(agentDeps.limits);
  const filters = filtersOf(run.filters);
  let tasks = [...run.tasks].sort((a, b) => a.order - b.order);
  const persist = async (patch: ResearchRunPatch) => {
    if (!(await updateResearchRun({ ownerId, id, from: ['running', 'synthesising'], patch }))) throw new RunMovedOn();
  };
  const replace = (task: ResearchTask) => {
    tasks = tasks.map((t) => (t.id === task.id ? task : t));
  };
  // The research-level log: each entry is streamed at once and saved with the next write (`record` saves now).
  let log: ResearchLogEntry[] = run.events;
  const note = (entry: ResearchLogInput) => {
    log = appendLog(log, entry);
    const added = log[log.length - 1];
    if (added) emit({ type: 'log', entry: added });
  };
  const record = async (entry: ResearchLogInput, patch: ResearchRunPatch = {}) => {
    note(entry);
    await persist({ ...patch, events: log });
  };

  /** Runs one task's agent; `patch` is saved with its start (the task marked running). */
  const runTask = async (
    task: ResearchTask,
    index: number,
    query: string,
    remediation: boolean,
    patch: ResearchRunPatch = {},
  ) => {
    emit({ type: 'task_start', taskId: task.id, index, total: tasks.length, title: task.title, query, remediation });
    const start = { taskId: task.id, index, total: tasks.length, title: task.title, remediation };
    await record({ type: 'task_start', ...start }, patch);
    const started = now();
    const result = await args.runAgent(
      {
        question: query,
        ownerId,
        mode: 'agent',
        style: run.style,
        ...(filters ? { filters } : {}),
        signal,
      },
      agentDeps,
      (event) => emit({ type: 'task_event', taskId: task.id, event }),
    );
    const ms = Math.round(now() - started);
    const stopped = result.status === 'stopped' || signal.aborted;
    const finished: ResearchTask = {
      ...task,
      status: stopped ? 'pending' : result.status === 'complete' ? 'done' : 'failed',
      answer: stopped ? null : result.answer,
      citations: stopped ? [] : result.citations.map(({ openedAs: _o, ...c }) => c),
      confidence: stopped ? null : result.confidence,
      validated: !stopped && result.validated,
      trace: result.trace,
    };
    const done = {
      taskId: task.id,
      status: finished.status === 'pending' ? ('skipped' as const) : finished.status === 'done' ? 'done' : 'failed',
      confidence: finished.confidence,
      citations: finished.citations.length,
      validated: finished.validated,
      ms,
    } as const;
    emit({ type: 'task_done', ...done });
    // A stopped task is not logged: the run was cancelled, and the cancel wrote the log's last entry.
    if (!stopped) note({ type: 'task_done', ...done, index, title: task.title, remediation });
    return { finished, stopped };
  };

  try {
    emit({ type: 'status', status: 'running', note: null });
    for (const [index, task] of tasks.entries()) {
      if (task.status === 'done') continue;
      if (signal.aborted) return;
      replace({ ...task, status: 'running' });
      const { finished, stopped } = await runTask(task, index, task.query, false, { tasks });
      replace(finished);
      if (stopped) {
        await updateResearchRun({ ownerId, id, from: ['running', 'cancelled'], patch: { tasks } });
        emit({ type: 'status', status: 'cancelled', note: 'The run was cancelled.' });
        return;
      }
      await persist({ tasks, heartbeatAt: new Date(), events: log });
    }

    await record({ type: 'status', status: 'synthesising', note: null }, { status: 'synthesising' });
    emit({ type: 'status', status: 'synthesising', note: null });

    // Quality check: the report's score is the mean of its sections'; below the threshold the weakest section's
    // task runs once more (one remediation pass), refocused on the research question.
    const scores = () => tasks.map((t) => ({ taskId: t.id as string | null, score: sectionQuality(t) }));
    const mean = (xs: { score: number }[]) => Math.round(xs.reduce((s, x) => s + x.score, 0) / Math.max(1, xs.length));
    const first = scores();
    const firstScore = mean(first);
    const weakest = [...first].sort((a, b) => a.score - b.score)[0];
    let action: ResearchReport['quality']['action'] = 'accept';
    let remediatedTaskId: string | null = null;
    let finalScore = firstScore;
    if (firstScore < limits.qualityThreshold && weakest?.taskId && !signal.aborted) {
      emit({
        type: 'quality',
        attempt: 1,
        score: firstScore,
        sections: first,
        action: 'retry',
        taskId: weakest.taskId,
      });
      const index = tasks.findIndex((t) => t.id === weakest.taskId);
      const task = tasks[index];
      await record({
        type: 'quality',
        attempt: 1,
        score: firstScore,
        threshold: limits.qualityThreshold,
        action: 'retry',
        taskId: weakest.taskId,
        taskTitle: task?.title ?? null,
      });
      if (task) {
        const focus = searchableQuestion(run.question);
        const query = `${task.query} (as part of: ${focus}; quote the passages that state it)`;
        const { finished, stopped } = await runTask(task, index, query, true);
        if (stopped) {
          emit({ type: 'status', status: 'cancelled', note: 'The run was cancelled.' });
          return;
        }
        if (sectionQuality(finished) > sectionQuality(task)) {
          replace({ ...finished, remediated: true });
          action = 'accept';
        } else action = 'keep_best';
        remediatedTaskId = task.id;
      }
      const second = scores();
      finalScore = mean(second);
      emit({ type: 'quality', attempt: 2, score: finalScore, sections: second, action, taskId: remediatedTaskId });
      note({
        type: 'quality',
        attempt: 2,
        score: finalScore,
        threshold: limits.qualityThreshold,
        action,
        taskId: remediatedTaskId,
        taskTitle: task?.title ?? null,
      });
    } else {
      emit({ type: 'quality', attempt: 1, score: firstScore, sections: first, action: 'accept', taskId: null });
      note({
        type: 'quality',
        attempt: 1,
        score: firstScore,
        threshold: limits.qualityThreshold,
        action: 'accept',
        taskId: null,
        taskTitle: null,
      });
    }
    await persist({ tasks, events: log });

    const { sections, citations } = numberSections(tasks);
    const model = agentDeps.models.decision
      ? { model: agentDeps.models.decision, timeoutMs: limits.planMs, signal, now }
      : null;
    const summary = await keyFindings(run.question, sections, model);
    emit({ type: 'synthesis', sections: sections.length, summarySource: summary.source, reason: summary.fallback });
    note({ type: 'synthesis', sections: sections.length, summarySource: summary.source, reason: summary.fallback });
    const report: ResearchReport = {
      title: run.question,
      summary: summary.summary,
      summarySource: summary.source,
      sections,
      quality: { score: finalScore, threshold: limits.qualityThreshold, remediatedTaskId, action },
      extractive: agentDeps.models.decision === null,
    };
    const withSources = sections.filter((s) => s.sources.length > 0);
    const confidence: Confidence =
      withSources.length === 0
        ? 'low'
        : withSources.length === sections.length && sections.every((s) => s.validated)
          ? 'high'
          : 'medium';
    const answerId = crypto.randomUUID();
    await persist({ report, events: log });
    await saveResearchAnswer({
      ownerId,
      runId: id,
      answerId,
      conversationId: run.conversationId,
      question: run.question,
      style: run.style,
      text: reportMarkdown(report),
      citations,
      report,
      trace: tasks.flatMap((t) => t.trace),
      confidence,
      safetyFlags: report.extractive ? ['extractive_mode'] : [],
      models: {
        decision: agentDeps.models.names.decision,
        synthesis: agentDeps.models.names.synthesis ?? agentDeps.models.names.decision,
        embedding: agentDeps.models.names.embedding,
        extractive: report.extractive,
      },
      timings: {},
    });
    note({ type: 'report', answerId, sections: sections.length, score: finalScore });
    note({ type: 'status', status: 'done', note: null });
    await persist({ status: 'done', runnerId: null, heartbeatAt: null, events: log });
    emit({ type: 'report', report, answerId });
    emit({ type: 'status', status: 'done', note: null });
  } catch (error) {
    if (error instanceof RunMovedOn) {
      emit({ type: 'status', status: 'cancelled', note: 'The run was cancelled.' });
      return;
    }
    throw error;
  }
}
