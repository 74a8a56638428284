// GET|POST /api/shares – the user's shared links; share an answer (returns its existing active link if any)
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { getConfig } from '@/lib/config';
import { createShare, listShares, type ShareSummary } from '@/lib/db/shares';
import { readJson } from '@/lib/http/read-json';

const createSchema = z
  .object({
    answerId: z.uuid(),
    expiresInDays: z.number().int().min(1).max(3650).nullish(),
  })
  .strict();

function withUrl(share: ShareSummary) {
  return { ...share, url: `${getConfig().appUrl}/share/${share.slug}` };
}

export const GET = withUser(async (_request, { user }) => {
  const shares = await listShares({ ownerId: user.id });
  return Response.json({ shares: shares.map(withUrl) }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = withUser(async (request, { user }) => {
  const body = await readJson(request, createSchema);
  const expiresAt = body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null;
  const share = await createShare({ ownerId: user.id, answerId: body.answerId, expiresAt });
  return Response.json({ share: withUrl(share) }, { status: 201 });
});
