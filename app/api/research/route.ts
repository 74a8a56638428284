// POST /api/research – start a research run (clarifying questions or the plan to approve)
import { withUser } from '@/lib/auth/with-user';
import { checkAgentRateLimit } from '@/lib/chat/run-for-user';
import { getConfig } from '@/lib/config';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getResearchService } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';

export const POST = withUser(apiRoutes['POST /api/research'], async (request, { user }) => {
  const body = await readJson(request, apiRoutes['POST /api/research'].body, {
    maxBytes: getConfig().requestLimits.agentBytes,
  });
  await checkAgentRateLimit(user.id);
  const run = await getResearchService().start(user.id, body);
  return Response.json({ run }, { status: 201 });
});
