// GET|PUT /api/buckets/:id/schema – the typed metadata fields the bucket declares (PUT re-reads values from its documents)
import { withUser } from '@/lib/auth/with-user';
import { getBucketMetaSchema, setBucketMetaSchema } from '@/lib/db/typed-meta';
import { extractBucketTypedValues } from '@/lib/documents/extract-typed-values';
import { bucketMetaSchemaSchema } from '@/lib/domain/typed-meta';
import { readJson } from '@/lib/http/read-json';

type Params = { id: string };

export const GET = withUser<Params>(async (_request, { user, params }) => {
  const schema = await getBucketMetaSchema({ ownerId: user.id, bucketId: params.id });
  return Response.json({ schema });
});

export const PUT = withUser<Params>(async (request, { user, params }) => {
  const body = await readJson(request, bucketMetaSchemaSchema);
  const schema = await setBucketMetaSchema({ ownerId: user.id, bucketId: params.id, schema: body });
  const extracted = await extractBucketTypedValues({ ownerId: user.id, bucketId: params.id });
  return Response.json({ schema, extracted });
});
