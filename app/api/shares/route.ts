// GET|POST /api/shares – the user's shared links; share an answer (returns its existing active link if any)
import { withUser } from '@/lib/auth/with-user';
import { getConfig } from '@/lib/config';
import { createShare, listShares, type ShareSummary } from '@/lib/db/shares';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';

function withUrl(share: ShareSummary) {
  return { ...share, url: `${getConfig().appUrl}/share/${share.slug}` };
}

export const GET = withUser(apiRoutes['GET /api/shares'], async (_request, { user }) => {
  const shares = await listShares({ ownerId: user.id });
  return Response.json({ shares: shares.map(withUrl) }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = withUser(apiRoutes['POST /api/shares'], async (request, { user }) => {
  const body = await readJson(request, apiRoutes['POST /api/shares'].body);
  const expiresAt = body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null;
  const share = await createShare({ ownerId: user.id, answerId: body.answerId, expiresAt });
  return Response.json({ share: withUrl(share) }, { status: 201 });
});
