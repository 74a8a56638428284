// POST /api/documents/:id/reindex – run the whole pipeline again (also the retry of a failed document)
import { withUser } from '@/lib/auth/with-user';
import { reindexDocument } from '@/lib/documents/manage';
import { apiRoutes } from '@/lib/http/api-routes';
import { getManageDeps } from '@/lib/services';

export const POST = withUser<{ id: string }>(
  apiRoutes['POST /api/documents/{id}/reindex'],
  async (_request, { user, params }) => {
    const document = await reindexDocument({ ownerId: user.id, id: params.id }, await getManageDeps());
    return Response.json({ document });
  },
);
