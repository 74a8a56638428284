// PATCH|DELETE /api/shares/:id – set or clear a link's expiry; revoke a link (it then answers 404)
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { getConfig } from '@/lib/config';
import { revokeShare, setShareExpiry } from '@/lib/db/shares';
import { readJson } from '@/lib/http/read-json';

type Params = { id: string };
const patchSchema = z.object({ expiresAt: z.iso.datetime({ offset: true }).max(64).nullable() }).strict();

export const PATCH = withUser<Params>(async (request, { user, params }) => {
  const { expiresAt } = await readJson(request, patchSchema);
  const share = await setShareExpiry({
    ownerId: user.id,
    id: params.id,
    expiresAt: expiresAt ? new Date(expiresAt) : null,
  });
  return Response.json({ share: { ...share, url: `${getConfig().appUrl}/share/${share.slug}` } });
});

export const DELETE = withUser<Params>(async (_request, { user, params }) => {
  const share = await revokeShare({ ownerId: user.id, id: params.id });
  return Response.json({ share: { ...share, url: `${getConfig().appUrl}/share/${share.slug}` } });
});
