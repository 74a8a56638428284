import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A deterministic Ollama-compatible server for reliability tests and `npm run load` (loopback only). It answers
 * GET /api/tags, POST /api/embed and POST /api/chat (JSON or NDJSON streaming, structured outputs from the
 * request's JSON schema). Decision steps follow a fixed policy: search, open the first result, finish; the
 * synthesis repeats the first sentence of opened source [1] with its marker. Faults can be switched on at run
 * time: unreachable (connection reset), slow (delay beyond any timeout), failing mid-stream, garbage bodies.
 */

export type FakeFault = 'none' | 'slow' | 'reset' | 'mid-stream' | 'garbage-json' | 'garbage-body' | 'http-500';

export interface FakeOllamaOptions {
  port?: number;
  models?: string[];
  embeddingDimensions?: number;
  /** Delay before every streamed token, in ms (realistic pacing for load runs). */
  tokenDelayMs?: number;
  /** Delay before a non-streamed answer, in ms. */
  answerDelayMs?: number;
  /** The query the decision policy searches with (defaults to the question's longest words). */
  searchQuery?: string;
}

export interface FakeOllama {
  url: string;
  port: number;
  /** Applies to chat calls only; tags and embeddings keep answering unless `scope` is 'all'. */
  setFault(fault: FakeFault, options?: { slowMs?: number; scope?: 'chat' | 'all' | 'stream' | 'json' }): void;
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
  default?: unknown;
}

/** A minimal value satisfying a JSON schema (first enum value, minimum numbers, required keys only). */
export function valueFor(schema: JsonSchema | undefined): unknown {
  if (!schema) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt && alt.length > 0) return valueFor(alt.find((s) => s.type !== 'null') ?? alt[0]);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = valueFor(schema.properties?.[key]);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => valueFor(schema.items));
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

interface ChatBody {
  model?: string;
  stream?: boolean;
  format?: unknown;
  messages?: { role: string; content: string }[];
}

function words(text: string): string[] {
  return (text.match(/[A-Za-z]{4,}/g) ?? []).slice(0, 6);
}

/** The decision policy: search, open r1, final. */
function decide(prompt: string, question: string, searchQuery: string | undefined): Record<string, unknown> {
  if (prompt.includes('<<<DATA source [1]')) return { action: 'final', reason: 'source opened' };
  if (/^r1 \(/m.test(prompt)) return { action: 'tool_call', calls: [{ tool: 'open_citation', handle: 'r1' }] };
  if (/No results for "|\(search_\w+, 0 hits\)/.test(prompt)) return { action: 'final', reason: 'nothing found' };
  return {
    action: 'tool_call',
    calls: [{ tool: 'search_docs', query: searchQuery ?? (words(question).join(' ') || 'document') }],
  };
}

/** The synthesis: the first sentence of source [1], cited; or a plain insufficiency sentence. */
function synthesise(prompt: string): string {
  const source = /<<<DATA source \[1\][^\n]*\n([\s\S]*?)\nDATA>>>/.exec(prompt)?.[1];
  if (source) {
    const sentence = /[A-Z][^.!?\n]{10,300}[.!?]/.exec(source)?.[0];
    if (sentence) return `${sentence.replace(/\s+/g, ' ').trim()} [1]`;
  }
  return 'The documents do not cover this.';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = options.models ?? ['qwen3:8b', 'nomic-embed-text:latest'];
  const dims = options.embeddingDimensions ?? 768;
  let fault: FakeFault = 'none';
  let slowMs = 600_000;
  let scope: 'chat' | 'all' | 'stream' | 'json' = 'chat';
  const counts = { chat: 0, chatStream: 0, embed: 0, tags: 0 };
  const sockets = new Set<Socket>();
  const now = () => new Date().toISOString();

  const applies = (kind: 'tags' | 'embed' | 'stream' | 'json') =>
    fault !== 'none' &&
    (scope === 'all' || (scope === 'chat' && (kind === 'stream' || kind === 'json')) || scope === kind);

  async function faulted(
    kind: 'tags' | 'embed' | 'stream' | 'json',
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<boolean> {
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
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'model crashed: CUDA error' }));
        return true;
      case 'garbage-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html>502 Bad Gateway</html>\u0000\u0001{{{');
        return true;
      default:
        return false;
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      if (req.method === 'GET' && url.startsWith('/api/tags')) {
        counts.tags++;
        if (await faulted('tags', req, res)) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            models: models.map((name) => ({ name, model: name, modified_at: now(), size: 1, digest: 'fake' })),
          }),
        );
        return;
      }
      if (req.method === 'GET' && (url === '/' || url.startsWith('/api/version'))) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ version: '0.0.0-fake' }));
        return;
      }
      const raw = await readBody(req);
      if (req.method === 'POST' && url.startsWith('/api/embed')) {
        counts.embed++;
        if (await faulted('embed', req, res)) return;
        const body = JSON.parse(raw) as { input?: string | string[] };
        const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
        const embeddings = inputs.map((text) => {
          const v: number[] = [];
          for (let i = 0; i < dims; i++) v.push(0);
          for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
            let hash = 0;
            for (let i = 0; i < w.length; i++) hash = (hash * 31 + w.charCodeAt(i)) >>> 0;
            v[hash % dims] = (v[hash % dims] ?? 0) + 1;
          }
          if (!v.some((x) => x !== 0)) v[0] = 1;
          return v;
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            model: 'nomic-embed-text',
            embeddings,
            total_duration: 1,
            load_duration: 0,
            prompt_eval_count: inputs.length,
          }),
        );
        return;
      }
      if (req.method === 'POST' && url.startsWith('/api/chat')) {
        counts.chat++;
        const body = JSON.parse(raw) as ChatBody;
        const messages = body.messages ?? [];
        const prompt = messages.map((m) => m.content).join('\n');
        const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
        const stream = body.stream !== false;
        if (stream) counts.chatStream++;
        if (await faulted(stream ? 'stream' : 'json', req, res)) return;
        let content: string;
        if (body.format && typeof body.format === 'object') {
          const schema = body.format as JsonSchema;
          if (fault === 'garbage-json' && applies('json'))
            content = 'Sure! Here is the JSON you asked for: {"action": tool_call,, }';
          else if (schema.properties?.action) content = JSON.stringify(decide(prompt, question, options.searchQuery));
          else content = JSON.stringify(valueFor(schema));
        } else {
          content = fault === 'garbage-json' && applies('stream') ? '\u0000\u0007���' : synthesise(prompt);
        }
        const base = { model: body.model ?? 'qwen3:8b', created_at: now() };
        if (!stream) {
          if (options.answerDelayMs) await sleep(options.answerDelayMs);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              ...base,
              message: { role: 'assistant', content },
              done: true,
              done_reason: 'stop',
              prompt_eval_count: 10,
              eval_count: 10,
            }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const pieces = content.match(/\S+\s*|\s+/g) ?? [content];
        for (let i = 0; i < pieces.length; i++) {
          if (fault === 'mid-stream' && applies('stream') && i === Math.min(3, pieces.length - 1)) {
            res.write('{"model":"qwen3:8b","message":{"role":"assis'); // half a line, then the connection drops
            res.destroy();
            return;
          }
          if (options.tokenDelayMs) await sleep(options.tokenDelayMs);
          if (res.destroyed) return;
          res.write(
            `${JSON.stringify({ ...base, message: { role: 'assistant', content: pieces[i] }, done: false })}\n`,
          );
        }
        res.end(
          `${JSON.stringify({ ...base, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 10, eval_count: pieces.length })}\n`,
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `not found: ${url}` }));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Ollama has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    counts,
    setFault(next, o = {}) {
      fault = next;
      slowMs = o.slowMs ?? 600_000;
      scope = o.scope ?? 'chat';
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
