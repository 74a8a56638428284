import { z } from 'zod';
import { type ErrorType, errorTypes } from '@/lib/errors';
import { type ApiRoute, apiRoutes, type RouteScope } from '@/lib/http/api-routes';
import { errorBodySchema } from '@/lib/http/api-schemas';

/**
 * The OpenAPI 3.1 document of the HTTP API, built from the route registry with zod's own JSON Schema output
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12). Schemas with a `.meta({ id })` become shared components.
 * `API_VERSION` changes with the contract (docs/api.md: versioning).
 */
export const API_VERSION = '1.0.0';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
  tags: { name: string }[];
}

/** One zod schema as JSON Schema, its `$defs` moved into `components`. */
export function toOpenApiSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  const { $schema: _ignored, $defs, ...rest } = json;
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components[id] ??= rewriteRefs(def) as JsonSchema;
  }
  return rewriteRefs(rest) as JsonSchema;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

function security(scope: RouteScope): JsonSchema[] {
  if (scope === 'public') return [];
  if (scope === 'session') return [{ sessionCookie: [] }];
  return [{ apiKey: [scope] }, { sessionCookie: [] }];
}

const statusDescriptions: Partial<Record<ErrorType, string>> = {
  unauthorized: 'No credentials, or an unknown, revoked or expired key (one body for all)',
  forbidden: 'The key lacks the scope, or a cross-site cookie request',
  rate_limited: 'Over a rate limit; see Retry-After',
};

function operation(route: ApiRoute, components: Record<string, JsonSchema>): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (route.query) {
    const q = toOpenApiSchema(route.query, 'input', components);
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonSchema>)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  for (const h of route.headers ?? []) {
    parameters.push({
      name: h.name,
      in: 'header',
      required: h.required,
      description: h.description,
      schema: { type: 'string' },
    });
  }
  const responses: Record<string, JsonSchema> = {};
  const r = route.response;
  responses[String(r.status)] = {
    description: r.description,
    ...(r.schema
      ? { content: { 'application/json': { schema: toOpenApiSchema(r.schema, 'output', components) } } }
      : r.contentType
        ? { content: { [r.contentType]: {} } }
        : {}),
  };
  const errorTypesOf = new Set<ErrorType>(route.errors);
  if (route.scope !== 'public')
    for (const t of ['unauthorized', 'forbidden', 'rate_limited'] as const) errorTypesOf.add(t);
  for (const type of errorTypesOf) {
    const status = String(errorTypes[type]);
    const existing = responses[status];
    const names = existing ? `${existing.description}; ${type}` : (statusDescriptions[type] ?? type);
    responses[status] = {
      description: names,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: security(route.scope),
    'x-docuchat-scope': route.scope,
    ...(route.internal ? { 'x-internal': true } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: toOpenApiSchema(route.body, 'input', components),
                ...(route.example !== undefined ? { example: route.example } : {}),
              },
            },
          },
        }
      : route.rawBody
        ? {
            requestBody: {
              required: true,
              description: route.rawBody.description,
              content: {
                [route.rawBody.contentType]: {
                  schema: { type: 'string', contentMediaType: route.rawBody.contentType },
                },
              },
            },
          }
        : {}),
    responses,
  };
}

/** `POST /api/documents/{id}/reindex` → `postDocumentsIdReindex`. */
export function operationId(route: Pick<ApiRoute, 'method' | 'path'>): string {
  const words = route.path
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
}

export function buildOpenApiDocument({ serverUrl }: { serverUrl: string }): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  toOpenApiSchema(errorBodySchema, 'output', components); // its .meta id makes it components.Error
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of Object.values(apiRoutes) as ApiRoute[]) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = operation(route, components);
    tags.add(route.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'DocuChat API',
      version: API_VERSION,
      description:
        'Ask your documents over HTTP. Authenticate with `Authorization: Bearer <key>` (create keys at ' +
        "/settings/api-keys). Every route answers only with the key owner's data; another user's ids answer 404. " +
        'Errors are `{ error: { code, message, fields? } }` with `code` = `type:surface`.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A personal API key (dc_…) with scope read or write' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'better-auth.session_token',
          description: 'The web app session',
        },
      },
    },
    tags: [...tags].map((name) => ({ name })),
  };
}
