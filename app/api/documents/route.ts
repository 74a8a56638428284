// GET /api/documents – the signed-in user's documents (filters: bucket, status, name)
import { withUser } from '@/lib/auth/with-user';
import { listDocuments } from '@/lib/db/documents';
import { apiRoutes } from '@/lib/http/api-routes';

export const GET = withUser(apiRoutes['GET /api/documents'], async (request, { user }) => {
  const query = apiRoutes['GET /api/documents'].query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const documents = await listDocuments({
    ownerId: user.id,
    filter: {
      ...(query.bucket ? { bucketId: query.bucket === 'none' ? null : query.bucket } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.name ? { name: query.name } : {}),
    },
  });
  return Response.json({ documents }, { headers: { 'cache-control': 'no-store' } });
});
