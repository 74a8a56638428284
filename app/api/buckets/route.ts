// GET|POST /api/buckets – the user's buckets
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { createBucket, listBuckets } from '@/lib/db/buckets';

const createSchema = z.object({ name: z.string() }).strict();

export const GET = withUser(async (_request, { user }) => {
  return Response.json(
    { buckets: await listBuckets({ ownerId: user.id }) },
    { headers: { 'cache-control': 'no-store' } },
  );
});

export const POST = withUser(async (request, { user }) => {
  const { name } = createSchema.parse(await request.json());
  const bucket = await createBucket({ ownerId: user.id, name });
  return Response.json({ bucket }, { status: 201 });
});
