// POST /api/mcp – DocuChat as a Model Context Protocol server (Streamable HTTP, stateless, JSON responses), with
// the agent's tools bound to the caller (API key with the read scope, or a session). GET/DELETE: 405.
import { withUser } from '@/lib/auth/with-user';
import { buildAgentDeps } from '@/lib/chat/agent-deps';
import { answerRunInputOf, checkAgentRateLimit, runAnswerForUser } from '@/lib/chat/run-for-user';
import { getConfig } from '@/lib/config';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { handleMcpRequest } from '@/lib/mcp/server';

export const dynamic = 'force-dynamic';
export const maxDuration = 600;

export const POST = withUser(apiRoutes['POST /api/mcp'], async (request, { user }) => {
  const parsedBody = await readJson(request, apiRoutes['POST /api/mcp'].body, {
    maxBytes: getConfig().requestLimits.agentBytes,
  });
  return handleMcpRequest(
    request,
    { ownerId: user.id, parsedBody },
    {
      agentDeps: buildAgentDeps,
      ask: async (body, signal) => {
        await checkAgentRateLimit(user.id);
        const { chatResult } = await runAnswerForUser(
          answerRunInputOf({ kind: 'agent', value: body }, { ownerId: user.id, signal }),
        );
        return chatResult;
      },
    },
  );
});

const notAllowed = async () =>
  new Response(
    JSON.stringify({ error: { code: 'bad_request:api', message: 'This MCP server is stateless: POST only.' } }),
    {
      status: 405,
      headers: { allow: 'POST', 'content-type': 'application/json' },
    },
  );

export const GET = withUser(apiRoutes['GET /api/mcp'], notAllowed);
export const DELETE = withUser(apiRoutes['DELETE /api/mcp'], notAllowed);
