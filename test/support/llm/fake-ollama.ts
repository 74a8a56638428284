import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { NO_CONSTRAINTS } from '../agent/script-steps';

/**
 * A deterministic Ollama-compatible HTTP server (loopback only, node built-ins only) for every test that talks to a
 * language model over real HTTP: the reliability tests and load/fault scripts start it in-process with
 * `startFakeOllama()`; Playwright starts it as its own process (`fake-ollama-server.ts`, run with tsx).
 *
 * Ollama API:
 *   GET  /api/tags        the configured models
 *   GET  /api/version
 *   POST /api/chat        streaming NDJSON (default) or one JSON object with `stream: false`. A request with `format`
 *                         (a JSON schema: structured output) gets JSON content; without it, answer text.
 *   POST /api/embed       deterministic vectors: hashed bag of words, L2-normalised
 *   POST /api/embeddings  the legacy single-prompt form
 * Control (HTTP, for a fake running in another process; the same operations exist on the returned object):
 *   GET  /__health        200 "Ollama is running"
 *   POST /__script        load a script (replaces the previous one and, unless `keepRequests`, the request log)
 *   GET  /__requests      what was received: { requests: FakeRequest[] }
 *   POST /__reset         empty script and log, no fault
 *   POST /__fault         { fault, slowMs?, scope? } (see `setFault`)
 *
 * What a chat call answers, by kind (told apart by the JSON schema sent as `format`):
 *   - a scripted reply when the script has one left for that kind (see `FakeScript`);
 *   - when the script gave replies for that kind and they are used up: decision → {"action":"final"}, text → the
 *     last scripted text again;
 *   - with nothing scripted for that kind, a fixed reading policy: decisions search (`searchQuery`, else the
 *     question's longest words), open the first hit `r1`, then finish; the answer text repeats the first sentence of
 *     opened source [1] with its marker (or says the documents do not cover it); plan → a one-step plan from the
 *     question; constraints → nothing required; any other schema → the smallest value it accepts.
 * Faults (`setFault`) make chat calls (or, by scope, every call) reset the connection, hang, fail mid-stream, answer
 * garbage or HTTP 500.
 */

export type FakeFault = 'none' | 'slow' | 'reset' | 'mid-stream' | 'garbage-json' | 'garbage-body' | 'http-500';
export type FakeFaultScope = 'chat' | 'all' | 'stream' | 'json';

/** A structured reply: the value itself, `{ json, delayMs }`, or `{ error, status }` to fail that request. */
type StructuredEntry = unknown;
/** A text reply: the text, `{ text, tokenDelayMs?, firstTokenDelayMs? }`, or `{ error, status }`. */
type TextEntry = string | { text: string; tokenDelayMs?: number; firstTokenDelayMs?: number } | FailEntry;
interface FailEntry {
  error: string;
  status?: number;
}

/** Replies by kind, used in order; every field is optional. */
export interface FakeScript {
  decision?: StructuredEntry[];
  plan?: StructuredEntry[];
  constraints?: StructuredEntry[];
  /** Replies to any other structured request. */
  structured?: StructuredEntry[];
  text?: TextEntry[];
  /** Delay between streamed answer tokens (default: the server's `tokenDelayMs`). */
  tokenDelayMs?: number;
  /** Delay before the first token of an answer. */
  firstTokenDelayMs?: number;
  /** Delay before a structured reply. */
  structuredDelayMs?: number;
  /** Keep the request log when loading this script. */
  keepRequests?: boolean;
}

/** Ollama's per-request model options (`num_ctx`, `temperature`, …). */
type ModelOptions = { num_ctx?: number } & Record<string, unknown>;

type Kind = 'decision' | 'plan' | 'constraints' | 'structured' | 'text';

export interface FakeRequest {
  at: number;
  path: string;
  kind: Kind | 'embed' | null;
  model: string | null;
  stream?: boolean;
  hasFormat?: boolean;
  options?: ModelOptions | null;
  messages?: ChatMessage[];
  /** Images sent with a chat request (vision calls). */
  images?: number;
  count?: number;
  aborted: boolean;
  tokensSent?: number;
  reply?: unknown;
}

export interface FakeOllamaOptions {
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** Model names /api/tags lists (default qwen3:8b and nomic-embed-text). */
  models?: string[];
  embeddingDimensions?: number;
  /** Default delay between streamed answer tokens, in ms (realistic pacing for load runs). */
  tokenDelayMs?: number;
  /** The query the reading policy searches with (defaults to the question's longest words). */
  searchQuery?: string;
}

export interface FakeOllama {
  url: string;
  port: number;
  /** Faults apply to chat calls (`scope` 'chat': streamed and JSON), one of them, or every call ('all'). */
  setFault(fault: FakeFault, options?: { slowMs?: number; scope?: FakeFaultScope }): void;
  script(script: FakeScript): void;
  reset(): void;
  readonly requests: FakeRequest[];
  counts: { chat: number; chatStream: number; embed: number; tags: number };
  close(): Promise<void>;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minItems?: number;
  minimum?: number;
  minLength?: number;
}

interface ChatMessage {
  role: string;
  content: unknown;
  /** Base64 images (Ollama's vision input). */
  images?: unknown;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  format?: unknown;
  options?: ModelOptions;
  messages?: ChatMessage[];
}

type Reply =
  | { kind: 'json'; value: unknown; delayMs: number }
  | { kind: 'text'; text: string; tokenDelayMs: number; firstTokenDelayMs: number }
  | { kind: 'error'; status: number; message: string };

/** The smallest value a JSON schema accepts (enums prefer "none"; nullable unions take their non-null member). */
function minimalValue(schema: JsonSchema | undefined): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.includes('none') ? 'none' : schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt && alt.length > 0) return minimalValue(alt.find((s) => s.type !== 'null') ?? alt[0]);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = minimalValue(schema.properties?.[key]);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items));
    case 'string':
      return 'x'.repeat(schema.minLength ?? 0);
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Which model call this is, from the JSON schema sent as `format`. */
function classify(format: unknown): Kind {
  if (!format || typeof format !== 'object') return 'text';
  const props = Object.keys((format as JsonSchema).properties ?? {});
  if (props.includes('action')) return 'decision';
  if (props.includes('steps') && props.includes('subQueries')) return 'plan';
  if (props.includes('minSearches')) return 'constraints';
  return 'structured';
}

const contentText = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));

function lastUserContent(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === 'user') return contentText(messages[i]?.content);
  return '';
}

const longWords = (text: string) => (text.match(/[A-Za-z]{4,}/g) ?? []).slice(0, 6);

/** The reading policy's next step: search, read a page flagged as a picture (with a vision model), open r1, finish. */
function decide(prompt: string, question: string, searchQuery: string | undefined): Record<string, unknown> {
  if (prompt.includes('<<<DATA source [1]')) return { action: 'final', reason: 'source opened' };
  const pictured = /Pages that look like pictures: (r\d+)/.exec(prompt)?.[1];
  if (pictured && prompt.includes('- visual_interpretation {'))
    return { action: 'tool_call', calls: [{ tool: 'visual_interpretation', handle: pictured }] };
  if (/^r1 \(/m.test(prompt)) return { action: 'tool_call', calls: [{ tool: 'open_citation', handle: 'r1' }] };
  if (/No results for "|\(search_\w+, 0 hits\)/.test(prompt)) return { action: 'final', reason: 'nothing found' };
  return {
    action: 'tool_call',
    calls: [{ tool: 'search_docs', query: searchQuery ?? (longWords(question).join(' ') || 'document') }],
  };
}

/** The base64 images of a chat request (Ollama puts them on the message), or an empty list. */
function imagesOf(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) =>
    Array.isArray(m.images) ? m.images.filter((i): i is string => typeof i === 'string') : [],
  );
}

/**
 * The fake vision model's answer about an image: a fixed description that names the image's size (read from the
 * PNG header), so a test can check the bound on what was sent.
 */
export function fakeVisionReading(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  const png = bytes.length >= 24 && bytes.toString('latin1', 1, 4) === 'PNG';
  const size = png ? `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}` : 'unknown size';
  return `The page image (${size} pixels) shows a bar chart with three bars labelled North, South and West, South being the tallest.`;
}

/** The reading policy's answer: the first sentence of source [1], cited; or a plain insufficiency sentence. */
function synthesise(prompt: string): string {
  const source = /<<<DATA source \[1\][^\n]*\n([\s\S]*?)\nDATA>>>/.exec(prompt)?.[1];
  const sentence = source ? /[A-Z][^.!?\n]{10,300}[.!?]/.exec(source)?.[0] : undefined;
  return sentence ? `${sentence.replace(/\s+/g, ' ').trim()} [1]` : 'The documents do not cover this.';
}

function planFromQuestion(messages: ChatMessage[]): Record<string, unknown> {
  const question = /Question:\s*([\s\S]*)$/.exec(lastUserContent(messages))?.[1]?.trim() ?? 'the question';
  return {
    intent: 'qa',
    buckets: [],
    dateFrom: '',
    dateTo: '',
    subQueries: [question.slice(0, 200)],
    outputFormat: 'natural_language',
    steps: ['search_docs for the question', 'open_citation the best result and answer'],
  };
}

const NOTHING_REQUIRED = NO_CONSTRAINTS;

/** FNV-1a 32-bit. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic unit vector: each lower-cased word adds ±1 at a hashed position. */
function embed(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = hash(w);
    v[h % dims] = (v[h % dims] ?? 0) + (h & 0x80000000 ? -1 : 1);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

/** Streamed tokens: words with their following whitespace. */
const tokenize = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isFail = (entry: unknown): entry is FailEntry =>
  typeof entry === 'object' && entry !== null && 'error' in entry && typeof entry.error === 'string';

/** Starts the fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = [...new Set(options.models ?? ['qwen3:8b', 'nomic-embed-text'])];
  const dims = options.embeddingDimensions ?? 768;
  let fault: FakeFault = 'none';
  let slowMs = 600_000;
  let scope: FakeFaultScope = 'chat';
  const counts = { chat: 0, chatStream: 0, embed: 0, tags: 0 };
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();

  let script: FakeScript = {};
  let queues: Record<Kind, unknown[]> = { decision: [], plan: [], constraints: [], structured: [], text: [] };
  let lastText: Reply | null = null;
  function loadScript(next: FakeScript): void {
    script = next;
    queues = {
      decision: [...(next.decision ?? [])],
      plan: [...(next.plan ?? [])],
      constraints: [...(next.constraints ?? [])],
      structured: [...(next.structured ?? [])],
      text: [...(next.text ?? [])],
    };
    lastText = null;
    if (!next.keepRequests) requests.length = 0;
  }
  const tokenDelay = () => script.tokenDelayMs ?? options.tokenDelayMs ?? 0;

  function setFault(next: FakeFault, o: { slowMs?: number; scope?: FakeFaultScope } = {}): void {
    fault = next;
    slowMs = o.slowMs ?? 600_000;
    scope = o.scope ?? 'chat';
  }

  const applies = (kind: 'tags' | 'embed' | 'stream' | 'json') =>
    fault !== 'none' &&
    (scope === 'all' || (scope === 'chat' && (kind === 'stream' || kind === 'json')) || scope === kind);

  /** Answers with the current fault when it applies to this call; true when the call is handled. */
  async function faulted(kind: 'tags' | 'embed' | 'stream' | 'json', req: IncomingMessage, res: ServerResponse) {
    if (!applies(kind)) return false;
    switch (fault) {
      case 'reset':
        req.socket.destroy();
        return true;
      case 'slow':
        await sleep(slowMs);
        if (!res.writableEnded && !res.destroyed) res.destroy();
        return true;
      case 'http-500':
        sendJson(res, 500, { error: 'model crashed: CUDA error' });
        return true;
      case 'garbage-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html>502 Bad Gateway</html>\u0000\u0001{{{');
        return true;
      default:
        return false;
    }
  }

  /** The reply for this call: scripted, or (queue used up / never scripted) the fallback described above. */
  function nextReply(kind: Kind, body: ChatBody, prompt: string): Reply {
    const messages = body.messages ?? [];
    const scripted = (script[kind]?.length ?? 0) > 0;
    const entry = queues[kind].shift();
    if (isFail(entry)) return { kind: 'error', status: entry.status ?? 500, message: entry.error };
    const images = imagesOf(messages);
    if (kind === 'text' && images.length > 0) {
      if (entry !== undefined) queues[kind].unshift(entry);
      return { kind: 'text', text: fakeVisionReading(images[0] ?? ''), tokenDelayMs: 0, firstTokenDelayMs: 0 };
    }
    if (kind === 'text') {
      if (entry === undefined) {
        if (scripted && lastText) return lastText;
        return { kind: 'text', text: synthesise(prompt), tokenDelayMs: tokenDelay(), firstTokenDelayMs: 0 };
      }
      const e = typeof entry === 'string' ? { text: entry } : (entry as Exclude<TextEntry, string | FailEntry>);
      lastText = {
        kind: 'text',
        text: String(e.text ?? ''),
        tokenDelayMs: e.tokenDelayMs ?? tokenDelay(),
        firstTokenDelayMs: e.firstTokenDelayMs ?? script.firstTokenDelayMs ?? 0,
      };
      return lastText;
    }
    const delayMs = script.structuredDelayMs ?? 0;
    if (entry !== undefined) {
      if (typeof entry === 'object' && entry !== null && 'json' in entry) {
        const e = entry as { json: unknown; delayMs?: number };
        return { kind: 'json', value: e.json, delayMs: e.delayMs ?? delayMs };
      }
      return { kind: 'json', value: entry, delayMs };
    }
    const question = lastUserContent(messages);
    const value =
      kind === 'decision'
        ? scripted
          ? { action: 'final', reason: 'fake model: script exhausted' }
          : decide(prompt, question, options.searchQuery)
        : kind === 'plan'
          ? planFromQuestion(messages)
          : kind === 'constraints'
            ? NOTHING_REQUIRED
            : (minimalValue(body.format as JsonSchema) ?? {});
    return { kind: 'json', value, delayMs };
  }

  async function handleChat(req: IncomingMessage, res: ServerResponse, body: ChatBody): Promise<void> {
    const started = process.hrtime.bigint();
    const messages = body.messages ?? [];
    const stream = body.stream !== false;
    const kind = classify(body.format);
    const record: FakeRequest = {
      at: Date.now(),
      path: '/api/chat',
      kind,
      model: body.model ?? null,
      stream,
      hasFormat: Boolean(body.format),
      options: body.options ?? null,
      messages,
      images: imagesOf(messages).length,
      aborted: false,
    };
    requests.push(record);
    counts.chat++;
    if (stream) counts.chatStream++;
    if (await faulted(stream ? 'stream' : 'json', req, res)) return;
    const prompt = messages.map((m) => contentText(m.content)).join('\n');
    const reply = nextReply(kind, body, prompt);
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
    });
    if (reply.kind === 'error') {
      record.reply = { error: reply.message };
      return sendJson(res, reply.status, { error: reply.message });
    }
    let text = reply.kind === 'json' ? JSON.stringify(reply.value) : reply.text;
    // garbage: structured replies fail under the 'json' scope, answer text under 'stream' ('chat' covers both)
    if (fault === 'garbage-json' && applies(reply.kind === 'json' ? 'json' : 'stream'))
      text =
        reply.kind === 'json' ? 'Sure! Here is the JSON you asked for: {"action": tool_call,, }' : '\u0000\u0007���';
    record.reply = reply.kind === 'json' ? reply.value : text;
    const model = body.model ?? models[0] ?? 'fake';
    const promptChars = JSON.stringify(messages).length;
    const done = (evalCount: number) => {
      const total = Number(process.hrtime.bigint() - started);
      return {
        done_reason: 'stop',
        total_duration: total,
        load_duration: 1000,
        prompt_eval_count: Math.max(1, Math.round(promptChars / 4)),
        prompt_eval_duration: 1000,
        eval_count: evalCount,
        eval_duration: Math.max(1, total - 2000),
      };
    };
    const line = (content: string, isDone: boolean, extra = {}) =>
      `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content }, done: isDone, ...extra })}\n`;

    if (reply.kind === 'json' && reply.delayMs) await sleep(reply.delayMs);
    if (reply.kind === 'text' && reply.firstTokenDelayMs) await sleep(reply.firstTokenDelayMs);
    if (!stream) {
      if (record.aborted) return;
      sendJson(res, 200, {
        model,
        created_at: new Date().toISOString(),
        message: { role: 'assistant', content: text },
        done: true,
        ...done(tokenize(text).length),
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const tokens = reply.kind === 'json' ? [text] : tokenize(text);
    let sent = 0;
    for (const token of tokens) {
      if (fault === 'mid-stream' && applies('stream') && sent === Math.min(3, tokens.length - 1)) {
        res.write(`{"model":"${model}","message":{"role":"assis`); // half a line, then the connection drops
        res.destroy();
        return;
      }
      if (record.aborted || res.destroyed) return;
      res.write(line(token, false));
      sent++;
      record.tokensSent = sent;
      if (reply.kind === 'text' && reply.tokenDelayMs) await sleep(reply.tokenDelayMs);
    }
    if (record.aborted || res.destroyed) return;
    res.end(line('', true, done(sent)));
  }

  async function handleEmbed(req: IncomingMessage, res: ServerResponse, path: string, raw: string) {
    counts.embed++;
    const body = JSON.parse(raw || '{}') as { model?: string; input?: unknown; prompt?: unknown };
    const inputs = path === '/api/embeddings' ? [body.prompt] : Array.isArray(body.input) ? body.input : [body.input];
    const texts = inputs.map((t) => (t === undefined || t === null ? '' : String(t)));
    requests.push({
      at: Date.now(),
      path,
      kind: 'embed',
      model: body.model ?? null,
      count: texts.length,
      aborted: false,
    });
    if (await faulted('embed', req, res)) return;
    if (path === '/api/embeddings') return sendJson(res, 200, { embedding: embed(texts[0] ?? '', dims) });
    sendJson(res, 200, {
      model: body.model ?? 'nomic-embed-text',
      embeddings: texts.map((t) => embed(t, dims)),
      total_duration: 1000,
      load_duration: 10,
      prompt_eval_count: texts.reduce((s, t) => s + t.split(/\s+/).length, 0),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (req.method === 'GET' && (path === '/' || path === '/__health')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('Ollama is running');
      return;
    }
    if (req.method === 'GET' && path === '/api/version') return sendJson(res, 200, { version: '0.0.0-fake' });
    if (req.method === 'GET' && path === '/api/tags') {
      counts.tags++;
      if (await faulted('tags', req, res)) return;
      return sendJson(res, 200, {
        models: models.map((name) => {
          const tagged = name.includes(':') ? name : `${name}:latest`;
          return {
            name: tagged,
            model: tagged,
            modified_at: '2026-01-01T00:00:00Z',
            size: 1,
            digest: hash(name).toString(16).padStart(8, '0'),
            details: { format: 'gguf', family: 'fake', parameter_size: '0B', quantization_level: 'none' },
          };
        }),
      });
    }
    if (req.method === 'GET' && path === '/__requests') return sendJson(res, 200, { requests });
    const raw = await readBody(req);
    if (req.method === 'POST' && path === '/__script') {
      const next: unknown = raw ? JSON.parse(raw) : {};
      loadScript(next && typeof next === 'object' ? (next as FakeScript) : {});
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/__reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/__fault') {
      const next = JSON.parse(raw || '{}') as { fault?: FakeFault; slowMs?: number; scope?: FakeFaultScope };
      setFault(next.fault ?? 'none', next);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/api/chat') return handleChat(req, res, JSON.parse(raw) as ChatBody);
    if (req.method === 'POST' && (path === '/api/embed' || path === '/api/embeddings'))
      return handleEmbed(req, res, path, raw);
    sendJson(res, 404, { error: `not found: ${req.method} ${path}` });
  }

  function reset(): void {
    loadScript({});
    setFault('none');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Ollama has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    counts,
    requests,
    setFault,
    script: loadScript,
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
