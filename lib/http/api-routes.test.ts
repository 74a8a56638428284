import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ApiRoute, apiRoutes, routeKeyOf } from '@/lib/http/api-routes';
import { buildOpenApiDocument, toOpenApiSchema } from '@/lib/http/openapi';
import { isRegistered, listRouteExports } from '@/lib/http/route-inventory';

const root = path.resolve(import.meta.dirname, '../..');
const exportsFound = listRouteExports(root);
const doc = buildOpenApiDocument({ serverUrl: 'http://localhost' });
const entries = Object.entries(apiRoutes) as [string, ApiRoute][];

describe('the route registry', () => {
  it('maps route files to keys', () => {
    expect(routeKeyOf('GET', 'app/api/documents/[id]/file/route.ts')).toBe('GET /api/documents/{id}/file');
    expect(routeKeyOf('POST', 'app/api/auth/[...all]/route.ts')).toBe('POST /api/auth/{path}');
  });

  it('finds the route files', () => {
    expect(exportsFound.length).toBeGreaterThan(20);
  });

  it.each(exportsFound.map((e) => [e.key, e] as const))('%s has a registry entry', (key) => {
    expect(isRegistered(key), `${key} is exported by a route file but missing from lib/http/api-routes.ts`).toBe(true);
  });

  it.each(entries)('%s has a route file that uses this entry', (key, route) => {
    const found = exportsFound.find((e) => e.key === key);
    expect(found, `${key} is in the registry but no route file exports it`).toBeDefined();
    expect(route.method).toBe(key.split(' ')[0]);
    expect(route.path).toBe(key.split(' ')[1]);
    if (!found) return;
    // Authenticated routes are built from their own entry (withUser enforces its scope) …
    if (route.scope !== 'public') expect(found.source).toContain(`withUser`);
    if (route.scope !== 'public') expect(found.source).toContain(`apiRoutes['${key}']`);
    // … and every JSON body is read with the entry's schema, the one the document shows.
    const reads = [...found.source.matchAll(/readJson\(\s*request,\s*([^,)]+)/g)].map((m) => m[1]?.trim());
    for (const schemaExpression of reads) expect(schemaExpression).toMatch(/^apiRoutes\['[A-Z]+ [^']+'\]\.body$/);
    if (route.body) expect(reads).toContain(`apiRoutes['${key}'].body`);
  });

  it('has typed examples: each parses with its route body schema', () => {
    const withExamples = entries.filter(([, r]) => r.example !== undefined);
    expect(withExamples.length).toBeGreaterThanOrEqual(8);
    for (const [key, route] of withExamples) expect(route.body?.safeParse(route.example).success, key).toBe(true);
  });

  it('never lets an API key into the key management routes', () => {
    for (const [key, route] of entries) if (key.includes('/api/api-keys')) expect(route.scope).toBe('session');
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with every registry entry as an operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const [key, route] of entries) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, key).toBeDefined();
      expect(op?.['x-docuchat-scope']).toBe(route.scope);
    }
  });

  it('shows each request body exactly as the route validates it', () => {
    for (const [key, route] of entries) {
      if (!route.body) continue;
      const op = doc.paths[route.path]?.[route.method.toLowerCase()] as {
        requestBody: { content: { 'application/json': { schema: unknown } } };
      };
      expect(op.requestBody.content['application/json'].schema, key).toEqual(toOpenApiSchema(route.body, 'input', {}));
    }
  });

  it('has unique operation ids and resolvable references', () => {
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty(ref as string);
  });

  it('documents 401, 403 and 429 on every authenticated route and the error schema', () => {
    for (const route of Object.values(apiRoutes) as ApiRoute[]) {
      const responses = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses as Record<string, unknown>;
      if (route.scope === 'public') continue;
      for (const status of ['401', '403', '429'])
        expect(responses, `${route.method} ${route.path}`).toHaveProperty(status);
    }
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
  });
});
