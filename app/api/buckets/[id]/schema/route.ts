// GET|PATCH /api/buckets/:id/schema – the typed metadata fields the bucket declares (PATCH replaces them and re-reads
// values from the bucket's documents)
import { withUser } from '@/lib/auth/with-user';
import { getBucketMetaSchema, setBucketMetaSchema } from '@/lib/db/typed-meta';
import { extractBucketTypedValues } from '@/lib/documents/extract-typed-values';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getChunkIndex } from '@/lib/services';

type Params = { id: string };

export const GET = withUser<Params>(apiRoutes['GET /api/buckets/{id}/schema'], async (_request, { user, params }) => {
  const schema = await getBucketMetaSchema({ ownerId: user.id, bucketId: params.id });
  return Response.json({ schema });
});

export const PATCH = withUser<Params>(
  apiRoutes['PATCH /api/buckets/{id}/schema'],
  async (request, { user, params }) => {
    const body = await readJson(request, apiRoutes['PATCH /api/buckets/{id}/schema'].body);
    const schema = await setBucketMetaSchema({ ownerId: user.id, bucketId: params.id, schema: body });
    const extracted = await extractBucketTypedValues(
      { ownerId: user.id, bucketId: params.id },
      { index: await getChunkIndex() },
    );
    return Response.json({ schema, extracted });
  },
);
