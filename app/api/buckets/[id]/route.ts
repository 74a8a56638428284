// PATCH|DELETE /api/buckets/:id – rename or delete one of the user's buckets (its documents stay, unbucketed)
import { withUser } from '@/lib/auth/with-user';
import { deleteBucket, getBucketOrThrow, listBuckets, renameBucket } from '@/lib/db/buckets';
import { findDocument } from '@/lib/db/documents';
import { syncIndexAttributes } from '@/lib/documents/manage';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getManageDeps } from '@/lib/services';

type Params = { id: string };

export const PATCH = withUser<Params>(apiRoutes['PATCH /api/buckets/{id}'], async (request, { user, params }) => {
  const { name } = await readJson(request, apiRoutes['PATCH /api/buckets/{id}'].body);
  await renameBucket({ ownerId: user.id, id: params.id, name });
  await getBucketOrThrow({ ownerId: user.id, id: params.id });
  const bucket = (await listBuckets({ ownerId: user.id })).find((b) => b.id === params.id);
  return Response.json({ bucket });
});

export const DELETE = withUser<Params>(apiRoutes['DELETE /api/buckets/{id}'], async (_request, { user, params }) => {
  const moved = await deleteBucket({ ownerId: user.id, id: params.id });
  const deps = await getManageDeps();
  for (const id of moved) {
    const document = await findDocument({ ownerId: user.id, id });
    if (document?.status === 'INDEXED')
      await syncIndexAttributes({ ownerId: user.id, document, metadata: document.metadata }, deps);
  }
  return new Response(null, { status: 204 });
});
