import { streamText } from 'ai';
import { type RunContext, userAborted, wallClockLeft } from './context';
import { extractiveAnswer } from './extractive';
import { deadlineSignal } from './model-call';
import { SYNTHESIS_INSTRUCTIONS, synthesisPrompt } from './prompts';
import type { Insufficiency } from './types';

/**
 * Stage 6: writes one draft. With a model it streams token by token (token events carry the attempt number so a
 * rejected draft can be discarded); without one, or when the model fails or times out, the extractive answer is
 * used for this attempt and the fallback is noted in the trace.
 */

export interface Draft {
  text: string;
  source: 'model' | 'extractive';
  insufficiencies: Insufficiency[];
}

function extractiveDraft(rc: RunContext, attempt: number, wider: boolean): Draft {
  const ex = extractiveAnswer(rc.state, rc.input.style, wider);
  markFirstToken(rc);
  rc.sink.token(attempt, ex.answer);
  return { text: ex.answer, source: 'extractive', insufficiencies: ex.insufficiencies };
}

function markFirstToken(rc: RunContext): void {
  if (rc.timings.firstTokenAt === null) rc.timings.firstTokenAt = rc.now();
}

/** Produces draft number `attempt`; `feedback` holds the gate's errors for a rewrite, `focus` a quality hint. */
export async function synthesizeDraft(
  rc: RunContext,
  attempt: number,
  feedback: string[],
  focus?: string,
): Promise<Draft> {
  const started = rc.now();
  try {
    const model = rc.synthesisModel;
    // Nothing could be searched (index down): say so plainly instead of letting a model write around it.
    const indexDown = rc.state.opened.length === 0 && rc.state.safetyFlags.has('index_unavailable');
    if (!model || userAborted(rc) || indexDown) return extractiveDraft(rc, attempt, focus !== undefined);
    const { signal, timedOut } = deadlineSignal(rc.signal, Math.min(rc.limits.synthesisMs, wallClockLeft(rc)));
    let text = '';
    let failure: string | null = null;
    try {
      const result = streamText({
        model,
        instructions: SYNTHESIS_INSTRUCTIONS,
        prompt: synthesisPrompt({ state: rc.state, style: rc.input.style, history: rc.input.history, feedback, focus }),
        abortSignal: signal,
        maxRetries: 0,
        temperature: 0.2,
        onError: () => {},
      });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          markFirstToken(rc);
          text += part.text;
          rc.sink.token(attempt, part.text);
        } else if (part.type === 'error') {
          failure = part.error instanceof Error ? part.error.message : String(part.error);
          break;
        } else if (part.type === 'abort') {
          failure = 'aborted';
          break;
        }
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    if (userAborted(rc)) return { text, source: 'model', insufficiencies: [] };
    if (failure !== null || text.trim().length === 0) {
      const reason = timedOut() ? `no answer within ${rc.limits.synthesisMs} ms` : (failure ?? 'empty answer');
      rc.sink.push({ type: 'fallback', stage: 'synthesis', reason: `${reason.slice(0, 200)}; extractive answer used` });
      return extractiveDraft(rc, attempt, false);
    }
    return { text: text.trim(), source: 'model', insufficiencies: [] };
  } finally {
    const ms = rc.now() - started;
    rc.timings.synthesisMs += ms;
    if (rc.synthesisModel) rc.timings.modelMs += ms;
  }
}
