// GET|PATCH|DELETE /api/documents/:id – one of the user's documents
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { getDocumentOrThrow } from '@/lib/db/documents';
import { deleteDocument, updateDocument } from '@/lib/documents/manage';
import { documentMetadataSchema } from '@/lib/domain/document';
import { readJson } from '@/lib/http/read-json';
import { getManageDeps } from '@/lib/services';

type Params = { id: string };

/** Per document; each field's name and value are capped by documentMetadataSchema. */
const MAX_METADATA_FIELDS = 100;

const patchSchema = z
  .object({
    bucketId: z.uuid().nullable().optional(),
    metadata: documentMetadataSchema
      .refine((m) => Object.keys(m.fields).length <= MAX_METADATA_FIELDS, {
        message: `At most ${MAX_METADATA_FIELDS} fields.`,
        path: ['fields'],
      })
      .optional(),
  })
  .strict();

export const GET = withUser<Params>(async (_request, { user, params }) => {
  const document = await getDocumentOrThrow({ ownerId: user.id, id: params.id });
  return Response.json({ document }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = withUser<Params>(async (request, { user, params }) => {
  const body = await readJson(request, patchSchema);
  const document = await updateDocument({ ownerId: user.id, id: params.id, ...body }, await getManageDeps());
  return Response.json({ document });
});

export const DELETE = withUser<Params>(async (_request, { user, params }) => {
  await deleteDocument({ ownerId: user.id, id: params.id }, await getManageDeps());
  return new Response(null, { status: 204 });
});
