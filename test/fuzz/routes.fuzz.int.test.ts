import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import { getConfig } from '@/lib/config';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { type ApiRoute, apiRoutes } from '@/lib/http/api-routes';
import { listRouteExports } from '@/lib/http/route-inventory';
import { recordFigures } from '@/scripts/figures';
import { bodiesFor, type FuzzBody, pathParam, queryFor } from './request-arbitraries';

/**
 * Fuzzes every route of the API registry through its real handler, in process: requests generated from the
 * route's own zod schema plus hostile mutations (wrong types, huge strings, deep nesting, bad UTF-8, duplicate keys,
 * wrong content types, hostile path and query values, no or garbage credentials). The property: no request is
 * answered with a 5xx, and every answer can be read to its end.
 *
 * `npm test` runs FUZZ_RUNS (default 12) requests per route; `npm run fuzz` runs many more and records
 * `fuzz.requests` and `fuzz.server_errors` in docs/figures.json.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ORIGIN = 'http://localhost:3000';
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

let cookie = '';
const tally = { requests: 0, serverErrors: 0 };
const failures: string[] = [];

function jsonLimitFor(route: ApiRoute): number {
  const limits = getConfig().requestLimits;
  if (route.path.startsWith('/api/auth')) return limits.authBytes;
  if (route.path.startsWith('/api/agent') || route.path === '/api/chat') return limits.agentBytes;
  return limits.jsonBytes;
}

async function signedInCookie(): Promise<string> {
  const email = `fuzz-${Date.now()}@example.test`;
  const password = 'a-long-fuzzing-password-1';
  const send = (p: string, body: unknown) =>
    authRoute.POST(
      new Request(`${ORIGIN}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:3000' },
        body: JSON.stringify(body),
      }),
    );
  await send('/api/auth/sign-up/email', { email, password, name: 'Fuzz' });
  const signIn = await send('/api/auth/sign-in/email', { email, password });
  expect(signIn.status).toBe(200);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const credentials = fc.oneof(
  { weight: 6, arbitrary: fc.constant('session') },
  { weight: 1, arbitrary: fc.constant('none') },
  { weight: 1, arbitrary: fc.constantFrom('Bearer ', 'Bearer dc_garbage', 'Basic Zm9vOmJhcg==') },
);

const authPath = fc.oneof(
  fc.constantFrom('sign-in/email', 'sign-up/email', 'sign-out', 'get-session', 'list-sessions', 'reset-password'),
  fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s)),
);

async function readAll(response: Response): Promise<string> {
  const reading = response.text();
  const timeout = new Promise<string>((_, reject) =>
    setTimeout(() => reject(new Error('the response body did not end within 30 s')), 30_000).unref(),
  );
  return Promise.race([reading, timeout]);
}

function buildRequest(
  route: ApiRoute,
  params: Record<string, string>,
  query: Record<string, string>,
  body: FuzzBody | null,
  auth: string,
): Request {
  let pathname = route.path;
  for (const [name, value] of Object.entries(params)) {
    pathname = pathname.replace(`{${name}}`, name === 'path' ? value : encodeURIComponent(value));
  }
  const url = new URL(`${ORIGIN}${pathname}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const headers = new Headers({ host: 'localhost:3000', origin: ORIGIN });
  if (auth === 'session') headers.set('cookie', cookie);
  else if (auth !== 'none') headers.set('authorization', auth);
  if (body?.contentType) headers.set('content-type', body.contentType);
  if (route.path === '/api/documents/upload') headers.set('x-file-name', encodeURIComponent('fuzz.txt'));
  const hasBody = route.method !== 'GET' && body !== null && body.body !== null;
  return new Request(url, {
    method: route.method,
    headers,
    ...(hasBody ? { body: body?.body as BodyInit } : {}),
  });
}

beforeAll(async () => {
  await ensureDbReady();
  cookie = await signedInCookie();
});

afterAll(() => {
  if (process.env.FUZZ_RECORD === '1') {
    recordFigures({
      'fuzz.requests': { value: tally.requests, unit: 'requests', command: 'npm run fuzz' },
      'fuzz.server_errors': { value: tally.serverErrors, unit: 'responses', command: 'npm run fuzz' },
    });
  }
  console.log(`[fuzz] ${tally.requests} requests, ${tally.serverErrors} answered 5xx`);
});

const exports = listRouteExports(ROOT);

describe('every API route survives generated and hostile requests without a 5xx', () => {
  it('the registry and the route files list the same routes', () => {
    expect(exports.length).toBeGreaterThan(20);
    for (const e of exports) expect(Object.hasOwn(apiRoutes, e.key)).toBe(true);
  });

  for (const entry of exports) {
    const route = (apiRoutes as Record<string, ApiRoute>)[entry.key];
    if (!route) continue;
    it(`${entry.key}`, { timeout: 600_000 }, async () => {
      const mod = (await import(path.join(ROOT, entry.file))) as Record<string, Handler>;
      const handler = mod[entry.method];
      if (!handler) throw new Error(`${entry.file} exports no ${entry.method}`);
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const params = fc.tuple(...names.map((n) => (n === 'path' ? authPath : pathParam))).map((values) => {
        const out: Record<string, string> = {};
        names.forEach((n, i) => {
          out[n] = values[i] as string;
        });
        return out;
      });
      const body = route.method === 'GET' ? fc.constant(null) : bodiesFor(route.body, jsonLimitFor(route));
      await fc.assert(
        fc.asyncProperty(params, queryFor(route.query), body, credentials, async (p, q, b, auth) => {
          const request = buildRequest(route, p, q, b, auth);
          const routeParams: Record<string, string | string[]> = { ...p };
          if ('path' in p) routeParams.all = String(p.path).split('/');
          let status: number;
          try {
            const response = await handler(request, { params: Promise.resolve(routeParams) });
            status = response.status;
            const text = await readAll(response);
            if (status >= 500 && process.env.FUZZ_DEBUG) console.log('[fuzz] 5xx body', status, text.slice(0, 300));
          } catch (error) {
            status = 599; // a handler that throws instead of answering is a server error too
            failures.push(`${entry.key} threw ${(error as Error).message}`);
          }
          tally.requests++;
          if (status >= 500) {
            tally.serverErrors++;
            failures.push(
              `${entry.key} ${status} (${b?.kind ?? 'no body'}, auth ${auth}, params ${JSON.stringify(p).slice(0, 80)})`,
            );
          }
          return status < 500;
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true },
      );
    });
  }

  it('saw no server error at all', () => {
    expect(failures).toEqual([]);
  });
});
