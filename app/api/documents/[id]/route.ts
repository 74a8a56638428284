// GET|PATCH|DELETE /api/documents/:id – one of the user's documents
import { withUser } from '@/lib/auth/with-user';
import { getDocumentOrThrow } from '@/lib/db/documents';
import { deleteDocument, updateDocument } from '@/lib/documents/manage';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getManageDeps } from '@/lib/services';

type Params = { id: string };

export const GET = withUser<Params>(apiRoutes['GET /api/documents/{id}'], async (_request, { user, params }) => {
  const document = await getDocumentOrThrow({ ownerId: user.id, id: params.id });
  return Response.json({ document }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = withUser<Params>(apiRoutes['PATCH /api/documents/{id}'], async (request, { user, params }) => {
  const body = await readJson(request, apiRoutes['PATCH /api/documents/{id}'].body);
  const document = await updateDocument({ ownerId: user.id, id: params.id, ...body }, await getManageDeps());
  return Response.json({ document });
});

export const DELETE = withUser<Params>(apiRoutes['DELETE /api/documents/{id}'], async (_request, { user, params }) => {
  await deleteDocument({ ownerId: user.id, id: params.id }, await getManageDeps());
  return new Response(null, { status: 204 });
});
