// GET|PATCH|DELETE /api/conversations/:id – one conversation with its messages; rename; delete
import { z } from 'zod';
import { withUser } from '@/lib/auth/with-user';
import { deleteConversation, getConversationOrThrow, listMessages, renameConversation } from '@/lib/db/conversations';
import { readJson } from '@/lib/http/read-json';

type Params = { id: string };
const renameSchema = z.object({ title: z.string().trim().min(1, 'Give the conversation a title.').max(200) }).strict();

export const GET = withUser<Params>(async (_request, { user, params }) => {
  const conversation = await getConversationOrThrow({ ownerId: user.id, id: params.id });
  const messages = await listMessages({ ownerId: user.id, conversationId: conversation.id });
  return Response.json({ conversation, messages }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = withUser<Params>(async (request, { user, params }) => {
  const { title } = await readJson(request, renameSchema);
  return Response.json({ conversation: await renameConversation({ ownerId: user.id, id: params.id, title }) });
});

export const DELETE = withUser<Params>(async (_request, { user, params }) => {
  await deleteConversation({ ownerId: user.id, id: params.id });
  return new Response(null, { status: 204 });
});
