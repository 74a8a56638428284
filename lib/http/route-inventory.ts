import fs from 'node:fs';
import path from 'node:path';
import { apiRoutes, type HttpMethod, routeKeyOf } from '@/lib/http/api-routes';

/**
 * What the route files actually export, read from their source (no import, so no server module loads): one
 * entry per `export const GET = …` / `export async function GET` in app/api/**\/route.ts. Used by the registry
 * test and `npm run api:report`.
 */
export interface RouteExport {
  file: string;
  method: HttpMethod;
  key: string;
  source: string;
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function listRouteFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name === 'route.ts') out.push(rel);
    }
  };
  walk('app/api');
  return out.sort();
}

export function listRouteExports(root: string): RouteExport[] {
  const out: RouteExport[] = [];
  for (const file of listRouteFiles(root)) {
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    for (const method of METHODS) {
      const exported = new RegExp(`export\\s+(const\\s+${method}\\b|(async\\s+)?function\\s+${method}\\b)`).test(
        source,
      );
      if (exported) out.push({ file, method, key: routeKeyOf(method, file), source });
    }
  }
  return out;
}

export function isRegistered(key: string): key is keyof typeof apiRoutes {
  return Object.hasOwn(apiRoutes, key);
}
