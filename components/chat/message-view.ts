import { type TraceEvent, traceEventSchema } from '@/lib/agent/events';
import type { ChatMessage, ChatMetadata, ChatResult } from '@/lib/chat/message';

/**
 * The view of one assistant message, derived from its parts only (so a live stream and a reloaded message render
 * the same way): the trace in arrival order (one entry per event id, latest state), the streamed drafts with the
 * ones a `draft_rejected` event discarded, the session and the final result.
 */

export interface DraftView {
  /** 1-based, in stream order. */
  attempt: number;
  text: string;
  streaming: boolean;
  /** The draft_rejected event that discarded this draft, if any. */
  rejection: Extract<TraceEvent, { type: 'draft_rejected' }> | null;
}

export type AnswerStatus = NonNullable<ChatMetadata['status']>;

export interface AnswerView {
  trace: TraceEvent[];
  drafts: DraftView[];
  result: ChatResult | null;
  session: { conversationId: string; answerId: string; title: string } | null;
  /** From the result, else the message metadata, else 'running'. */
  status: AnswerStatus;
}

type Session = NonNullable<AnswerView['session']>;

// Data parts arrive typed as unknown (ChatDataTypes has an index signature) and persisted ones come from the
// database: each is checked once (cached by object identity, as the SDK replaces `data` on every update).
const traceCache = new WeakMap<object, TraceEvent | null>();

/** The trace event in a data part, or null when it does not match the event vocabulary. */
export function asTraceEvent(data: unknown): TraceEvent | null {
  if (typeof data !== 'object' || data === null) return null;
  const cached = traceCache.get(data);
  if (cached !== undefined) return cached;
  const parsed = traceEventSchema.safeParse(data);
  const value = parsed.success ? parsed.data : null;
  traceCache.set(data, value);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The final result in a data part (shape-checked on the fields the page relies on), or null. */
export function asChatResult(data: unknown): ChatResult | null {
  if (!isRecord(data)) return null;
  const ok =
    typeof data.answerId === 'string' &&
    typeof data.answer === 'string' &&
    Array.isArray(data.citations) &&
    Array.isArray(data.insufficiencies) &&
    Array.isArray(data.safetyFlags) &&
    typeof data.validated === 'boolean' &&
    (data.confidence === 'high' || data.confidence === 'medium' || data.confidence === 'low') &&
    (data.status === 'complete' || data.status === 'stopped' || data.status === 'error') &&
    isRecord(data.models) &&
    isRecord(data.timings);
  return ok ? (data as unknown as ChatResult) : null;
}

/** The session in a data part, or null. */
export function asSession(data: unknown): Session | null {
  if (!isRecord(data)) return null;
  const { conversationId, answerId, title } = data;
  if (typeof conversationId !== 'string' || typeof answerId !== 'string' || typeof title !== 'string') return null;
  return { conversationId, answerId, title };
}

/** Reads an assistant message's parts into an AnswerView. */
export function readAnswer(message: ChatMessage): AnswerView {
  const trace: TraceEvent[] = [];
  const drafts: DraftView[] = [];
  let result: ChatResult | null = null;
  let session: AnswerView['session'] = null;
  // A draft is rejected by the first draft_rejected event that follows it before the next draft starts.
  let openDraft: DraftView | null = null;
  for (const part of message.parts) {
    if (part.type === 'text') {
      openDraft = {
        attempt: drafts.length + 1,
        text: part.text,
        streaming: part.state === 'streaming',
        rejection: null,
      };
      drafts.push(openDraft);
    } else if (part.type === 'data-trace') {
      const event = asTraceEvent(part.data);
      if (!event) continue;
      trace.push(event);
      if (event.type === 'draft_rejected' && openDraft && !openDraft.rejection) openDraft.rejection = event;
    } else if (part.type === 'data-result') {
      result = asChatResult(part.data) ?? result;
    } else if (part.type === 'data-session') {
      session = asSession(part.data) ?? session;
    }
  }
  const status: AnswerStatus = result?.status ?? message.metadata?.status ?? 'running';
  return { trace, drafts, result, session, status };
}

/** The plain text of a user message. */
export function messageText(message: ChatMessage): string {
  return message.parts
    .filter((p): p is Extract<ChatMessage['parts'][number], { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/**
 * The text to show for the answer: the final result when there is one; else, while the run is `live`, the last
 * draft not rejected (shown as a draft being checked). A draft is text the gate has not passed: once the run is
 * over without a result (the stream broke, the tab was stopped), it is never shown as the answer.
 */
export function visibleAnswerText(view: AnswerView, live = false): string {
  if (view.result) {
    // A clarifying question is shown once, in its own box with what was searched (answer-notes.tsx).
    const asked = view.result.clarification?.question.trim();
    return asked && view.result.answer.trim() === asked ? '' : view.result.answer;
  }
  if (!live) return '';
  for (let i = view.drafts.length - 1; i >= 0; i--) {
    const d = view.drafts[i];
    if (d && !d.rejection) return d.text;
  }
  return '';
}

/** Counts for the collapsed trace header. */
export function traceSummary(trace: TraceEvent[]): {
  searches: number;
  opened: number;
  pending: number;
  failedChecks: number;
} {
  let searches = 0;
  let opened = 0;
  let pending = 0;
  let failedChecks = 0;
  for (const e of trace) {
    if (e.type === 'tool_call') pending++;
    if (e.type === 'tool_call' || e.type === 'tool_result') {
      if (e.tool === 'open_citation') {
        if (e.type === 'tool_result' && e.ok) opened++;
      } else if (e.tool !== 'get_document_metadata') searches++;
    }
    if (e.type === 'validation' && !e.passed) failedChecks++;
  }
  return { searches, opened, pending, failedChecks };
}

/** The research run an assistant message shows (its `data-research` part), or null. */
export function researchRunIdOf(message: ChatMessage): string | null {
  for (const part of message.parts) {
    if (part.type !== 'data-research') continue;
    const data: unknown = part.data;
    if (typeof data === 'object' && data !== null && 'runId' in data && typeof data.runId === 'string')
      return data.runId;
  }
  return null;
}
