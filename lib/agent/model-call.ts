import { generateText, type LanguageModel, NoObjectGeneratedError, Output } from 'ai';
import type { z } from 'zod';

/**
 * One structured model call with a deadline: JSON constrained by the schema at the model (Output.object, which
 * providers such as Ollama turn into a JSON-schema `format`), validated by zod here. Never throws: a failure is a
 * typed outcome the caller turns into a retry or a fallback.
 */

export type StructuredOutcome<T> =
  | { ok: true; value: T; ms: number }
  | {
      ok: false;
      reason: 'aborted' | 'timeout' | 'malformed' | 'error';
      message: string;
      text: string | null;
      ms: number;
    };

export interface StructuredCall<T> {
  model: LanguageModel;
  instructions: string;
  prompt: string;
  schema: z.ZodType<T>;
  name: string;
  signal?: AbortSignal;
  timeoutMs: number;
  now: () => number;
  /** Maps near-miss JSON onto the schema before validation (only on the lenient path). */
  coerce?: (raw: unknown) => unknown;
}

/** Extracts a JSON value from model text that wraps it in prose or a code fence. */
export function parseLooseJson(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  const body = fenced?.[1] ?? trimmed;
  try {
    return JSON.parse(body);
  } catch {
    const open = body.search(/[[{]/);
    if (open < 0) return undefined;
    const closeChar = body.charAt(open) === '{' ? '}' : ']';
    const close = body.lastIndexOf(closeChar);
    if (close <= open) return undefined;
    try {
      return JSON.parse(body.slice(open, close + 1));
    } catch {
      return undefined;
    }
  }
}

/** Combines the run's signal with a per-call deadline; `timedOut()` tells a deadline from a user abort. */
export function deadlineSignal(
  signal: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; timedOut: () => boolean } {
  const timeout = AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))); // must be an integer (wall-clock remainders are not)
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  return { signal: combined, timedOut: () => timeout.aborted && !(signal?.aborted ?? false) };
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

// Output specs are reused per schema: building one converts the zod schema to JSON schema, which is not free.
const outputs = new WeakMap<object, ReturnType<typeof Output.object>>();
function outputFor<T>(schema: z.ZodType<T>, name: string): ReturnType<typeof Output.object<T>> {
  const cached = outputs.get(schema) as ReturnType<typeof Output.object<T>> | undefined;
  if (cached) return cached;
  const created = Output.object<T>({ schema, name });
  outputs.set(schema, created as ReturnType<typeof Output.object>);
  return created;
}

/** Runs the call; see StructuredOutcome for what comes back. */
export async function callStructured<T>(call: StructuredCall<T>): Promise<StructuredOutcome<T>> {
  const started = call.now();
  const { signal, timedOut } = deadlineSignal(call.signal, call.timeoutMs);
  const elapsed = () => call.now() - started;
  try {
    const result = await generateText({
      model: call.model,
      instructions: call.instructions,
      prompt: call.prompt,
      output: outputFor(call.schema, call.name),
      abortSignal: signal,
      maxRetries: 0,
      temperature: 0,
    });
    return { ok: true, value: result.output, ms: elapsed() };
  } catch (error) {
    if (call.signal?.aborted) return { ok: false, reason: 'aborted', message: 'aborted', text: null, ms: elapsed() };
    if (timedOut())
      return {
        ok: false,
        reason: 'timeout',
        message: `no answer within ${call.timeoutMs} ms`,
        text: null,
        ms: elapsed(),
      };
    if (NoObjectGeneratedError.isInstance(error)) {
      const text = error.text ?? '';
      const loose = parseLooseJson(text);
      if (loose !== undefined) {
        const parsed = call.schema.safeParse(call.coerce ? call.coerce(loose) : loose);
        if (parsed.success) return { ok: true, value: parsed.data, ms: elapsed() };
        return { ok: false, reason: 'malformed', message: describeZodError(parsed.error), text, ms: elapsed() };
      }
      return { ok: false, reason: 'malformed', message: 'the output was not JSON', text, ms: elapsed() };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'error', message: message.slice(0, 300), text: null, ms: elapsed() };
  }
}
