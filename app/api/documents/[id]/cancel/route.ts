// POST /api/documents/:id/cancel – stop a queued or running ingestion job
import { withUser } from '@/lib/auth/with-user';
import { cancelDocument } from '@/lib/documents/manage';

export const POST = withUser<{ id: string }>(async (_request, { user, params }) => {
  const document = await cancelDocument({ ownerId: user.id, id: params.id });
  return Response.json({ document });
});
