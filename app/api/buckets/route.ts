// GET|POST /api/buckets – the user's buckets
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { createBucket, listBuckets } from '@/lib/db/buckets';
import { readJson } from '@/lib/http/read-json';

const createSchema = z.object({ name: z.string().max(1000) }).strict(); // bucketNameSchema gives the real rule

export const GET = withUser(async (_request, { user }) => {
  return Response.json(
    { buckets: await listBuckets({ ownerId: user.id }) },
    { headers: { 'cache-control': 'no-store' } },
  );
});

export const POST = withUser(async (request, { user }) => {
  const { name } = await readJson(request, createSchema);
  const bucket = await createBucket({ ownerId: user.id, name });
  return Response.json({ bucket }, { status: 201 });
});
