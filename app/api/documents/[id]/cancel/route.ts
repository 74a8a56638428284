// POST /api/documents/:id/cancel – stop a queued or running ingestion job
import { withUser } from '@/lib/auth/with-user';
import { cancelDocument } from '@/lib/documents/manage';
import { apiRoutes } from '@/lib/http/api-routes';

export const POST = withUser<{ id: string }>(
  apiRoutes['POST /api/documents/{id}/cancel'],
  async (_request, { user, params }) => {
    const document = await cancelDocument({ ownerId: user.id, id: params.id });
    return Response.json({ document });
  },
);
