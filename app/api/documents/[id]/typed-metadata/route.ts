// GET|PUT /api/documents/:id/typed-metadata – the document's typed values for its bucket's schema, with evidence
import { withUser } from '@/lib/auth/with-user';
import { getDocumentTypedMeta, setDocumentTypedValues } from '@/lib/db/typed-meta';
import { manualValuesSchema } from '@/lib/domain/typed-meta';
import { readJson } from '@/lib/http/read-json';

type Params = { id: string };

export const GET = withUser<Params>(async (_request, { user, params }) => {
  const typed = await getDocumentTypedMeta({ ownerId: user.id, documentId: params.id });
  return Response.json(typed);
});

export const PUT = withUser<Params>(async (request, { user, params }) => {
  const { values } = await readJson(request, manualValuesSchema);
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
  return Response.json({ meta });
});
