import type { AgentEvent } from '@/lib/agent/events';
import { splitSentences } from '@/lib/agent/text';

/**
 * Streams a finished, validated answer sentence by sentence, for runs that streamed no text of their own (the
 * extractive policy assembles and checks its answer whole). Only the final answer is replayed, never a draft, so
 * nothing reaches the reader that the gate did not pass; the pieces concatenate to exactly that answer.
 */

/** The answer cut after each sentence: every piece keeps its own whitespace and markup; joined they are `answer`. */
export function sentencePieces(answer: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const s of splitSentences(answer)) {
    if (s.end <= from) continue;
    pieces.push(answer.slice(from, s.end));
    from = s.end;
  }
  if (from < answer.length) {
    if (pieces.length > 0) pieces[pieces.length - 1] += answer.slice(from);
    else pieces.push(answer.slice(from));
  }
  return pieces;
}

/** Emits `answer` as token events, one sentence at a time, with a short pause between sentences. */
export async function replayAnswer(
  answer: string,
  emit: (event: AgentEvent) => void,
  { pauseMs = 30, signal }: { pauseMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<void> {
  const pieces = sentencePieces(answer);
  for (let i = 0; i < pieces.length; i++) {
    const text = pieces[i];
    if (text) emit({ type: 'token', attempt: 1, text });
    if (i < pieces.length - 1 && pauseMs > 0 && !signal?.aborted) await new Promise((r) => setTimeout(r, pauseMs));
  }
}
