// GET /api/documents – the signed-in user's documents (filters: bucket, status, name)
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { listDocuments } from '@/lib/db/documents';

const querySchema = z.object({
  bucket: z.union([z.uuid(), z.literal('none')]).optional(),
  status: z.enum(['PENDING', 'PROCESSING', 'INDEXED', 'FAILED']).optional(),
  name: z.string().trim().max(200).optional(),
});

export const GET = withUser(async (request, { user }) => {
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const documents = await listDocuments({
    ownerId: user.id,
    filter: {
      ...(query.bucket ? { bucketId: query.bucket === 'none' ? null : query.bucket } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.name ? { name: query.name } : {}),
    },
  });
  return Response.json({ documents }, { headers: { 'cache-control': 'no-store' } });
});
