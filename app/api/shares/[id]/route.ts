// PATCH|DELETE /api/shares/:id – set or clear a link's expiry; revoke a link (it then answers 404)
import { withUser } from '@/lib/auth/with-user';
import { getConfig } from '@/lib/config';
import { revokeShare, setShareExpiry } from '@/lib/db/shares';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';

type Params = { id: string };

export const PATCH = withUser<Params>(apiRoutes['PATCH /api/shares/{id}'], async (request, { user, params }) => {
  const { expiresAt } = await readJson(request, apiRoutes['PATCH /api/shares/{id}'].body);
  const share = await setShareExpiry({
    ownerId: user.id,
    id: params.id,
    expiresAt: expiresAt ? new Date(expiresAt) : null,
  });
  return Response.json({ share: { ...share, url: `${getConfig().appUrl}/share/${share.slug}` } });
});

export const DELETE = withUser<Params>(apiRoutes['DELETE /api/shares/{id}'], async (_request, { user, params }) => {
  const share = await revokeShare({ ownerId: user.id, id: params.id });
  return Response.json({ share: { ...share, url: `${getConfig().appUrl}/share/${share.slug}` } });
});
