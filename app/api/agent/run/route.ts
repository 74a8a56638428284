// POST /api/agent/run – run the agent and answer with the finished result as JSON (trace when asked)
import { withUser } from '@/lib/auth/with-user';
import { agentRunBodySchema } from '@/lib/chat/request';
import { checkAgentRateLimit, runAnswerForUser } from '@/lib/chat/run-for-user';

export const dynamic = 'force-dynamic';
export const maxDuration = 600;

export const POST = withUser(async (request, { user }) => {
  const body = agentRunBodySchema.parse(await request.json());
  await checkAgentRateLimit(user.id);
  const { session, chatResult, result } = await runAnswerForUser({
    ownerId: user.id,
    question: body.question,
    conversationId: body.conversationId ?? null,
    options: { mode: body.mode, style: body.style, ...(body.filters ? { filters: body.filters } : {}) },
    signal: request.signal,
    persistConversation: Boolean(body.conversationId),
  });
  return Response.json({
    ...chatResult,
    conversationId: session.conversationId,
    ...(body.returnTrace ? { trace: result.trace } : {}),
  });
});
