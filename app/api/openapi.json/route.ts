// GET /api/openapi.json – the OpenAPI 3.1 document, built from the route registry (lib/http/api-routes.ts)
import { getConfig } from '@/lib/config';
import { buildOpenApiDocument } from '@/lib/http/openapi';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json(buildOpenApiDocument({ serverUrl: getConfig().appUrl }), {
    headers: { 'cache-control': 'public, max-age=300' },
  });
}
