#!/usr/bin/env node
// A deterministic Ollama-compatible HTTP server for browser tests (plain Node, no dependencies).
//
//   node e2e/fake-ollama.mjs [--port 11999]        (or FAKE_OLLAMA_PORT; default 11999)
//
// Ollama API:
//   GET  /api/tags       the configured models (FAKE_OLLAMA_MODELS, else LLM_*_MODEL / EMBEDDING_MODEL, else defaults)
//   GET  /api/version
//   POST /api/chat       streaming NDJSON (default) or one JSON object with `stream: false`. A request with `format`
//                        (a JSON schema: structured output) gets JSON content from the script; without it, answer text.
//   POST /api/embed      deterministic vectors: hashed bag of words, FAKE_OLLAMA_DIMS (default 768), L2-normalised
//   POST /api/embeddings the legacy single-prompt form
// Control:
//   POST /__script       load a script (replaces the previous one and, unless `keepRequests`, the request log)
//   GET  /__requests     what was received: [{ at, path, kind, model, stream, hasFormat, options, messages, aborted }]
//   POST /__reset        empty script and log
//
// Script (every field optional):
//   {
//     "decision":    [ { "action": "tool_call", "calls": [{ "tool": "search_docs", "query": "refund" }] }, ... ],
//     "plan":        [ { "intent": "qa", "buckets": [], "dateFrom": "", "dateTo": "", "subQueries": ["..."],
//                        "outputFormat": "natural_language", "steps": ["...", "..."] } ],
//     "constraints": [ { ...requirements object... } ],
//     "structured":  [ ...replies to any other structured request... ],
//     "text":        [ "answer with [1]", { "text": "slow answer", "tokenDelayMs": 200 } ],
//     "tokenDelayMs": 15,        default delay between streamed tokens
//     "firstTokenDelayMs": 0,    delay before the first token of a text answer
//     "structuredDelayMs": 0     delay before a structured reply
//   }
// Each queue entry may also be { "json": {...}, "delayMs": n } (structured), { "text": "...", "tokenDelayMs": n,
// "firstTokenDelayMs": n } (text) or { "error": "message", "status": 500 } (fail this request).
// When a queue is empty: decision → {"action":"final"}; plan → a one-step plan from the question; constraints →
// nothing required; text → the last scripted text again (or a fixed sentence); other structured → the minimal
// object the schema allows.
import http from 'node:http';

const argPort = (() => {
  const i = process.argv.indexOf('--port');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();
const PORT = Number(argPort ?? process.env.FAKE_OLLAMA_PORT ?? 11999);
const DIMS = Number(process.env.FAKE_OLLAMA_DIMS ?? process.env.EMBEDDING_DIMENSIONS ?? 768);
const MODELS = (
  process.env.FAKE_OLLAMA_MODELS ??
  [
    process.env.LLM_DECISION_MODEL ?? 'qwen3:8b',
    process.env.LLM_SYNTHESIS_MODEL ?? 'qwen3:8b',
    process.env.EMBEDDING_MODEL ?? 'nomic-embed-text',
  ].join(',')
)
  .split(',')
  .map((m) => m.trim())
  .filter(Boolean);

let script = {};
let queues = { decision: [], plan: [], constraints: [], structured: [], text: [] };
let lastText = null;
let requests = [];

function loadScript(next) {
  script = next && typeof next === 'object' ? next : {};
  queues = {
    decision: [...(script.decision ?? [])],
    plan: [...(script.plan ?? [])],
    constraints: [...(script.constraints ?? [])],
    structured: [...(script.structured ?? [])],
    text: [...(script.text ?? [])],
  };
  lastText = null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (!raw) return resolve({});
      try {
        resolve(JSON.parse(raw));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Which model call this is, from the JSON schema the agent sent as `format`. */
function classify(body) {
  const format = body.format;
  if (!format) return 'text';
  const props = format && typeof format === 'object' ? Object.keys(format.properties ?? {}) : [];
  if (props.includes('action')) return 'decision';
  if (props.includes('steps') && props.includes('subQueries')) return 'plan';
  if (props.includes('minSearches')) return 'constraints';
  return 'structured';
}

function lastUserContent(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  }
  return '';
}

/** The smallest value a JSON schema accepts (enums prefer "none"; arrays get their minimum of items). */
function minimalValue(schema) {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.enum)) return schema.enum.includes('none') ? 'none' : schema.enum[0];
  if ('const' in schema) return schema.const;
  const anyOf = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(anyOf) && anyOf.length > 0) return minimalValue(anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out = {};
      for (const key of schema.required ?? []) out[key] = minimalValue(schema.properties?.[key]);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items));
    case 'string':
      return schema.minLength ? 'x'.repeat(schema.minLength) : '';
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function defaultStructured(kind, body) {
  if (kind === 'decision') return { action: 'final', reason: 'fake model: script exhausted' };
  if (kind === 'plan') {
    const question = /Question:\s*([\s\S]*)$/.exec(lastUserContent(body))?.[1]?.trim() ?? 'the question';
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
  if (kind === 'constraints') {
    return {
      minSearches: 0,
      requiredTopics: [],
      minOpenCitations: 0,
      exactQuotes: [],
      conflictRule: 'none',
      requiredSections: [],
      insufficiencyPhrase: '',
    };
  }
  return minimalValue(body.format) ?? {};
}

/** The next scripted reply for this kind of call, normalised to { kind: 'json'|'text'|'error', ... }. */
function nextReply(kind, body) {
  const entry = queues[kind]?.shift();
  if (kind === 'text') {
    if (entry === undefined) {
      return (
        lastText ?? {
          kind: 'text',
          text: 'The documents do not say.',
          tokenDelayMs: script.tokenDelayMs ?? 0,
          firstTokenDelayMs: 0,
        }
      );
    }
    if (entry && typeof entry === 'object' && 'error' in entry)
      return { kind: 'error', status: entry.status ?? 500, message: String(entry.error) };
    const reply =
      typeof entry === 'string'
        ? {
            kind: 'text',
            text: entry,
            tokenDelayMs: script.tokenDelayMs ?? 0,
            firstTokenDelayMs: script.firstTokenDelayMs ?? 0,
          }
        : {
            kind: 'text',
            text: String(entry.text ?? ''),
            tokenDelayMs: entry.tokenDelayMs ?? script.tokenDelayMs ?? 0,
            firstTokenDelayMs: entry.firstTokenDelayMs ?? script.firstTokenDelayMs ?? 0,
          };
    lastText = reply;
    return reply;
  }
  if (entry === undefined)
    return { kind: 'json', value: defaultStructured(kind, body), delayMs: script.structuredDelayMs ?? 0 };
  if (entry && typeof entry === 'object' && 'error' in entry)
    return { kind: 'error', status: entry.status ?? 500, message: String(entry.error) };
  if (entry && typeof entry === 'object' && 'json' in entry)
    return { kind: 'json', value: entry.json, delayMs: entry.delayMs ?? script.structuredDelayMs ?? 0 };
  return { kind: 'json', value: entry, delayMs: script.structuredDelayMs ?? 0 };
}

/** Splits text into streamed tokens: words with their following whitespace. */
function tokenize(text) {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function line(model, content, done, extra = {}) {
  return `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content }, done, ...extra })}\n`;
}

function doneStats(promptChars, outputTokens, startedNs) {
  const total = Number(process.hrtime.bigint() - startedNs);
  return {
    done_reason: 'stop',
    total_duration: total,
    load_duration: 1000,
    prompt_eval_count: Math.max(1, Math.round(promptChars / 4)),
    prompt_eval_duration: 1000,
    eval_count: outputTokens,
    eval_duration: Math.max(1, total - 2000),
  };
}

async function handleChat(res, body, record) {
  const started = process.hrtime.bigint();
  const model = String(body.model ?? MODELS[0] ?? 'fake');
  const kind = classify(body);
  record.kind = kind;
  const reply = nextReply(kind, body);
  const promptChars = JSON.stringify(body.messages ?? []).length;
  let closed = false;
  res.on('close', () => {
    if (!res.writableFinished) {
      closed = true;
      record.aborted = true;
    }
  });
  if (reply.kind === 'error') {
    record.reply = { error: reply.message };
    return sendJson(res, reply.status, { error: reply.message });
  }
  const text = reply.kind === 'json' ? JSON.stringify(reply.value) : reply.text;
  record.reply = reply.kind === 'json' ? reply.value : reply.text;
  const stream = body.stream !== false;
  if (reply.kind === 'json' && reply.delayMs) await sleep(reply.delayMs);
  if (!stream) {
    if (reply.kind === 'text' && reply.firstTokenDelayMs) await sleep(reply.firstTokenDelayMs);
    if (closed) return;
    const tokens = tokenize(text).length;
    return sendJson(res, 200, {
      model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content: text },
      done: true,
      ...doneStats(promptChars, tokens, started),
    });
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const tokens = reply.kind === 'json' ? [text] : tokenize(text);
  if (reply.kind === 'text' && reply.firstTokenDelayMs) await sleep(reply.firstTokenDelayMs);
  let sent = 0;
  for (const token of tokens) {
    if (closed) return;
    res.write(line(model, token, false));
    sent++;
    record.tokensSent = sent;
    if (reply.kind === 'text' && reply.tokenDelayMs) await sleep(reply.tokenDelayMs);
  }
  if (closed) return;
  res.end(line(model, '', true, doneStats(promptChars, sent, started)));
}

/** FNV-1a 32-bit. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic unit vector: each lower-cased word adds ±1 at a hashed position. */
function embed(text) {
  const v = new Array(DIMS).fill(0);
  const words =
    String(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    const h = hash(w);
    v[h % DIMS] += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  try {
    if (req.method === 'GET' && (path === '/' || path === '/__health')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('Ollama is running');
    }
    if (req.method === 'GET' && path === '/api/version') return sendJson(res, 200, { version: '0.0.0-fake' });
    if (req.method === 'GET' && path === '/api/tags') {
      const unique = [...new Set(MODELS)];
      return sendJson(res, 200, {
        models: unique.map((name) => ({
          name: name.includes(':') ? name : `${name}:latest`,
          model: name.includes(':') ? name : `${name}:latest`,
          modified_at: '2026-01-01T00:00:00Z',
          size: 1,
          digest: hash(name).toString(16).padStart(8, '0'),
          details: { format: 'gguf', family: 'fake', parameter_size: '0B', quantization_level: 'none' },
        })),
      });
    }
    if (req.method === 'POST' && path === '/__script') {
      const body = await readBody(req);
      loadScript(body);
      if (!body.keepRequests) requests = [];
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/__reset') {
      loadScript({});
      requests = [];
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'GET' && path === '/__requests') return sendJson(res, 200, { requests });

    if (req.method === 'POST' && path === '/api/chat') {
      const body = await readBody(req);
      const record = {
        at: Date.now(),
        path,
        kind: null,
        model: body.model ?? null,
        stream: body.stream !== false,
        hasFormat: Boolean(body.format),
        options: body.options ?? null,
        messages: body.messages ?? [],
        aborted: false,
      };
      requests.push(record);
      return await handleChat(res, body, record);
    }
    if (req.method === 'POST' && path === '/api/embed') {
      const body = await readBody(req);
      const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
      requests.push({
        at: Date.now(),
        path,
        kind: 'embed',
        model: body.model ?? null,
        count: inputs.length,
        aborted: false,
      });
      return sendJson(res, 200, {
        model: body.model ?? 'fake',
        embeddings: inputs.map((t) => embed(t)),
        total_duration: 1000,
        load_duration: 10,
        prompt_eval_count: inputs.reduce((s, t) => s + String(t).split(/\s+/).length, 0),
      });
    }
    if (req.method === 'POST' && path === '/api/embeddings') {
      const body = await readBody(req);
      requests.push({ at: Date.now(), path, kind: 'embed', model: body.model ?? null, count: 1, aborted: false });
      return sendJson(res, 200, { embedding: embed(body.prompt ?? '') });
    }
    return sendJson(res, 404, { error: `not found: ${req.method} ${path}` });
  } catch (error) {
    if (!res.headersSent) sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) });
    else res.end();
  }
});

server.listen(PORT, '127.0.0.1', () => {
  process.stdout.write(
    `fake-ollama listening on http://127.0.0.1:${PORT} (models: ${[...new Set(MODELS)].join(', ')}; ${DIMS} dims)\n`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  });
}
