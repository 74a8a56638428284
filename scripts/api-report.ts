// npm run api:report – counts the route handlers (app/api/**/route.ts exports) and how many of them the OpenAPI
// document describes, and records api.routes_total / api.routes_documented in docs/figures.json. (The API-key
// isolation matrix's counts are recorded by `npm run isolation:report`, which runs it.)
import path from 'node:path';
import { buildOpenApiDocument } from '@/lib/http/openapi';
import { listRouteExports } from '@/lib/http/route-inventory';
import { recordFigures } from './figures';

const root = path.resolve(import.meta.dirname, '..');
const routes = listRouteExports(root);
const doc = buildOpenApiDocument({ serverUrl: 'http://localhost' });
const documented = routes.filter((r) => {
  const routePath = r.key.split(' ')[1] ?? '';
  return Boolean(doc.paths[routePath]?.[r.method.toLowerCase()]);
});
for (const r of routes) {
  const ok = documented.includes(r);
  console.log(`${ok ? 'documented  ' : 'UNDOCUMENTED'} ${r.key}  (${r.file})`);
}
console.log(`route handlers: ${routes.length}, in /api/openapi.json: ${documented.length}`);

const figures: Parameters<typeof recordFigures>[0] = {
  'api.routes_total': { value: routes.length, unit: 'route handlers', command: 'npm run api:report' },
  'api.routes_documented': { value: documented.length, unit: 'route handlers', command: 'npm run api:report' },
};
recordFigures(figures);
