// POST /api/agent/run – run the agent and answer with the finished result as JSON (trace when asked)
import { withUser } from '@/lib/auth/with-user';
import { answerRunInputOf, checkAgentRateLimit, runAnswerForUser } from '@/lib/chat/run-for-user';
import { getConfig } from '@/lib/config';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getResearchService, researchStartOf } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';
export const maxDuration = 600;

export const POST = withUser(apiRoutes['POST /api/agent/run'], async (request, { user }) => {
  const body = await readJson(request, apiRoutes['POST /api/agent/run'].body, {
    maxBytes: getConfig().requestLimits.agentBytes,
  });
  await checkAgentRateLimit(user.id);
  if (body.mode === 'research') {
    const run = await getResearchService().start(user.id, researchStartOf(body));
    return Response.json({ run }, { status: 201 });
  }
  const { session, chatResult, result } = await runAnswerForUser(
    answerRunInputOf(
      { kind: 'agent', value: { ...body, mode: body.mode } },
      { ownerId: user.id, signal: request.signal },
    ),
  );
  return Response.json({
    ...chatResult,
    conversationId: session.conversationId,
    ...(body.returnTrace ? { trace: result.trace } : {}),
  });
});
