// GET|POST /api/api-keys – the signed-in user's API keys; create one (the key is in this response only)
import { createApiKey } from '@/lib/auth/api-keys';
import { withUser } from '@/lib/auth/with-user';
import { listApiKeys } from '@/lib/db/api-keys';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';

export const GET = withUser(apiRoutes['GET /api/api-keys'], async (_request, { user }) => {
  return Response.json(
    { apiKeys: await listApiKeys({ ownerId: user.id }) },
    { headers: { 'cache-control': 'no-store' } },
  );
});

export const POST = withUser(apiRoutes['POST /api/api-keys'], async (request, { user }) => {
  const body = await readJson(request, apiRoutes['POST /api/api-keys'].body);
  const created = await createApiKey({ ownerId: user.id, body });
  return Response.json(created, { status: 201, headers: { 'cache-control': 'no-store' } });
});
