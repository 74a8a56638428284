// GET /api/chunks/:id – a cited passage with its page/sheet/section text (the user's indexed documents only)
import { withUser } from '@/lib/auth/with-user';
import { getChunkViewOrThrow } from '@/lib/db/chunks';
import { apiRoutes } from '@/lib/http/api-routes';

export const GET = withUser<{ id: string }>(apiRoutes['GET /api/chunks/{id}'], async (_request, { user, params }) => {
  const chunk = await getChunkViewOrThrow({ ownerId: user.id, id: params.id });
  return Response.json({ chunk }, { headers: { 'cache-control': 'private, no-store' } });
});
