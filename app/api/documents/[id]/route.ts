// GET|PATCH|DELETE /api/documents/:id – one of the user's documents
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { getDocumentOrThrow } from '@/lib/db/documents';
import { deleteDocument, updateDocument } from '@/lib/documents/manage';
import { documentMetadataSchema } from '@/lib/domain/document';
import { getManageDeps } from '@/lib/services';

type Params = { id: string };

const patchSchema = z
  .object({
    bucketId: z.uuid().nullable().optional(),
    metadata: documentMetadataSchema.optional(),
  })
  .strict();

export const GET = withUser<Params>(async (_request, { user, params }) => {
  const document = await getDocumentOrThrow({ ownerId: user.id, id: params.id });
  return Response.json({ document }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = withUser<Params>(async (request, { user, params }) => {
  const body = patchSchema.parse(await request.json());
  const document = await updateDocument({ ownerId: user.id, id: params.id, ...body }, await getManageDeps());
  return Response.json({ document });
});

export const DELETE = withUser<Params>(async (_request, { user, params }) => {
  await deleteDocument({ ownerId: user.id, id: params.id }, await getManageDeps());
  return new Response(null, { status: 204 });
});
