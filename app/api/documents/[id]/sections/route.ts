// GET /api/documents/:id/sections – a long document's sections and their summaries (the summary → segment route)
import { withUser } from '@/lib/auth/with-user';
import { findStoredFile } from '@/lib/db/documents';
import { listDocumentSections } from '@/lib/db/summaries';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';

type Params = { id: string };

export const GET = withUser<Params>(
  apiRoutes['GET /api/documents/{id}/sections'],
  async (_request, { user, params }) => {
    if (!(await findStoredFile({ ownerId: user.id, id: params.id })))
      throw new AppError('not_found:document', 'Document not found.');
    return Response.json({ sections: await listDocumentSections(user.id, params.id) });
  },
);
