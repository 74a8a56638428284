// GET|PATCH|DELETE /api/conversations/:id – one conversation with its messages; rename; delete
import { withUser } from '@/lib/auth/with-user';
import { deleteConversation, getConversationOrThrow, listMessages, renameConversation } from '@/lib/db/conversations';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';

type Params = { id: string };

export const GET = withUser<Params>(apiRoutes['GET /api/conversations/{id}'], async (_request, { user, params }) => {
  const conversation = await getConversationOrThrow({ ownerId: user.id, id: params.id });
  const messages = await listMessages({ ownerId: user.id, conversationId: conversation.id });
  return Response.json({ conversation, messages }, { headers: { 'cache-control': 'no-store' } });
});

export const PATCH = withUser<Params>(apiRoutes['PATCH /api/conversations/{id}'], async (request, { user, params }) => {
  const { title } = await readJson(request, apiRoutes['PATCH /api/conversations/{id}'].body);
  return Response.json({ conversation: await renameConversation({ ownerId: user.id, id: params.id, title }) });
});

export const DELETE = withUser<Params>(
  apiRoutes['DELETE /api/conversations/{id}'],
  async (_request, { user, params }) => {
    await deleteConversation({ ownerId: user.id, id: params.id });
    return new Response(null, { status: 204 });
  },
);
