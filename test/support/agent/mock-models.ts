import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';

/**
 * Scripted models for deterministic agent runs. Outputs are consumed in order; the last one repeats.
 * JSON outputs may be objects (serialised) or raw strings (to script malformed JSON).
 */

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

function pick<T>(list: readonly T[], i: number): T {
  const item = list[Math.min(i, list.length - 1)];
  if (item === undefined) throw new Error('script is empty');
  return item;
}

/** Splits text into small deltas the way a model streams it. */
export function toDeltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export interface ScriptedModel extends MockLanguageModelV4 {
  generateCount(): number;
  streamCount(): number;
  prompts(): string[];
}

/** A model whose generate calls return `json` in order and whose stream calls stream `texts` in order. */
export function scriptedModel(script: {
  json?: readonly (object | string)[];
  texts?: readonly string[];
  modelId?: string;
}): ScriptedModel {
  let g = 0;
  let s = 0;
  const prompts: string[] = [];
  const model = new MockLanguageModelV4({
    modelId: script.modelId ?? 'mock-model',
    doGenerate: async (options) => {
      prompts.push(JSON.stringify(options.prompt));
      const item = pick(script.json ?? ['{}'], g++);
      const text = typeof item === 'string' ? item : JSON.stringify(item);
      return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
    doStream: async (options) => {
      prompts.push(JSON.stringify(options.prompt));
      const text = pick(script.texts ?? [''], s++);
      const chunks: LanguageModelV4StreamPart[] = [
        { type: 'text-start', id: 't' },
        ...toDeltas(text).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return Object.assign(model, { generateCount: () => g, streamCount: () => s, prompts: () => prompts });
}

/** A model that never answers until its call is aborted (for deadline tests). */
export function hangingModel(): MockLanguageModelV4 {
  const wait = (signal: AbortSignal | undefined) =>
    new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return new MockLanguageModelV4({
    modelId: 'hanging-model',
    doGenerate: async (options) => wait(options.abortSignal),
    doStream: async (options) => wait(options.abortSignal),
  });
}

/** A model whose every call fails (connection refused). */
export function failingModel(): MockLanguageModelV4 {
  const fail = async (): Promise<never> => {
    throw new Error('connect ECONNREFUSED 127.0.0.1:11434');
  };
  return new MockLanguageModelV4({ modelId: 'failing-model', doGenerate: fail, doStream: fail });
}
