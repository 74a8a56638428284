// GET /api/documents/:id/visual-pages – PDF pages flagged at ingest as pictures (for visual_interpretation)
import { withUser } from '@/lib/auth/with-user';
import { findStoredFile } from '@/lib/db/documents';
import { listVisualPages } from '@/lib/db/visual-pages';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';

type Params = { id: string };

export const GET = withUser<Params>(
  apiRoutes['GET /api/documents/{id}/visual-pages'],
  async (_request, { user, params }) => {
    if (!(await findStoredFile({ ownerId: user.id, id: params.id })))
      throw new AppError('not_found:document', 'Document not found.');
    const pages = await listVisualPages(user.id, [params.id]);
    return Response.json({ pages: pages.map(({ documentId: _d, ...p }) => p) });
  },
);
