// GET|PATCH /api/documents/:id/typed-metadata – the document's typed values for its bucket's schema, with evidence
import { withUser } from '@/lib/auth/with-user';
import { getDocumentTypedMeta, setDocumentTypedValues } from '@/lib/db/typed-meta';
import { syncIndexedTypedValues } from '@/lib/documents/manage';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getChunkIndex } from '@/lib/services';

type Params = { id: string };

export const GET = withUser<Params>(
  apiRoutes['GET /api/documents/{id}/typed-metadata'],
  async (_request, { user, params }) => {
    const typed = await getDocumentTypedMeta({ ownerId: user.id, documentId: params.id });
    return Response.json(typed);
  },
);

export const PATCH = withUser<Params>(
  apiRoutes['PATCH /api/documents/{id}/typed-metadata'],
  async (request, { user, params }) => {
    const { values } = await readJson(request, apiRoutes['PATCH /api/documents/{id}/typed-metadata'].body);
    const evidence = Object.fromEntries(
      Object.keys(values).map((key) => [
        key,
        { source: 'manual' as const, quote: null, chunkIndex: null, page: null, charStart: null, charEnd: null },
      ]),
    );
    const meta = await setDocumentTypedValues({
      ownerId: user.id,
      documentId: params.id,
      values,
      evidence,
      replace: true,
    });
    // Typed filters run inside the chunk index: the new values go there at once.
    await syncIndexedTypedValues({ ownerId: user.id, documentId: params.id }, { index: await getChunkIndex() });
    return Response.json({ meta });
  },
);
