// GET|POST /api/buckets – the user's buckets
import { withUser } from '@/lib/auth/with-user';
import { createBucket, listBuckets } from '@/lib/db/buckets';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';

export const GET = withUser(apiRoutes['GET /api/buckets'], async (_request, { user }) => {
  return Response.json(
    { buckets: await listBuckets({ ownerId: user.id }) },
    { headers: { 'cache-control': 'no-store' } },
  );
});

export const POST = withUser(apiRoutes['POST /api/buckets'], async (request, { user }) => {
  const { name } = await readJson(request, apiRoutes['POST /api/buckets'].body);
  const bucket = await createBucket({ ownerId: user.id, name });
  return Response.json({ bucket }, { status: 201 });
});
