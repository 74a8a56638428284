// DELETE /api/api-keys/:id – revoke one of the user's API keys (it then answers like a missing key)
import { withUser } from '@/lib/auth/with-user';
import { revokeApiKey } from '@/lib/db/api-keys';
import { apiRoutes } from '@/lib/http/api-routes';

export const DELETE = withUser<{ id: string }>(
  apiRoutes['DELETE /api/api-keys/{id}'],
  async (_request, { user, params }) => {
    return Response.json({ apiKey: await revokeApiKey({ ownerId: user.id, id: params.id }) });
  },
);
