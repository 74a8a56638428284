// npm run api:report – counts the route handlers (app/api/**/route.ts exports) and how many of them the OpenAPI
// document describes, and records api.routes_total / api.routes_documented in docs/figures.json. When the
// isolation spec has run (npx playwright test e2e/isolation.spec.ts), it also records the API-key matrix's
// counts from e2e/.results/isolation-keys.json as isolation.key_probes / isolation.key_leaks.
import fs from 'node:fs';
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
const isolationFile = path.join(root, 'e2e/.results/isolation-keys.json');
if (fs.existsSync(isolationFile)) {
  const counts = JSON.parse(fs.readFileSync(isolationFile, 'utf8')) as {
    keyProbes: number;
    keyLeaks: number;
    at: string;
  };
  console.log(`isolation with API keys (run ${counts.at}): ${counts.keyProbes} probes, ${counts.keyLeaks} leaks`);
  const command = 'npx playwright test e2e/isolation.spec.ts && npm run api:report';
  figures['isolation.key_probes'] = { value: counts.keyProbes, unit: 'requests', command };
  figures['isolation.key_leaks'] = { value: counts.keyLeaks, unit: 'leaks', command };
} else {
  console.log('no e2e/.results/isolation-keys.json: run the isolation spec to record the key matrix');
}
recordFigures(figures);
