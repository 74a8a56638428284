// GET /api/conversations – the user's conversations, newest first
import { withUser } from '@/lib/auth/with-user';
import { listConversations } from '@/lib/db/conversations';
import { apiRoutes } from '@/lib/http/api-routes';

export const GET = withUser(apiRoutes['GET /api/conversations'], async (_request, { user }) => {
  return Response.json(
    { conversations: await listConversations({ ownerId: user.id }) },
    { headers: { 'cache-control': 'no-store' } },
  );
});
