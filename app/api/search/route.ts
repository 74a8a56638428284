// GET /api/search?q=… – search the user's indexed documents with the agent's own search tools
import { type SearchToolName, searchWithAgentTool } from '@/lib/agent/tools/for-callers';
import { withUser } from '@/lib/auth/with-user';
import { buildAgentDeps } from '@/lib/chat/agent-deps';
import { AppError } from '@/lib/errors';
import { apiRoutes } from '@/lib/http/api-routes';

const toolOf: Record<'hybrid' | 'keyword' | 'semantic', SearchToolName> = {
  hybrid: 'search_docs',
  keyword: 'search_text',
  semantic: 'search_semantic',
};

export const GET = withUser(apiRoutes['GET /api/search'], async (request, { user }) => {
  const query = apiRoutes['GET /api/search'].query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const outcome = await searchWithAgentTool(await buildAgentDeps(), {
    ownerId: user.id,
    tool: toolOf[query.mode],
    query: query.q,
    bucket: query.bucket,
    limit: query.limit,
    signal: request.signal,
  });
  if (!outcome.ok) {
    // The caller's input: an unknown bucket, a query without searchable words, a filter that cannot apply, or
    // semantic mode on a server without an embedding model (it will not work later either: not a 503).
    if (['UNKNOWN_BUCKET', 'MISSING_QUERY', 'BAD_FILTER', 'NO_EMBEDDING_MODEL'].includes(outcome.code))
      throw new AppError('unprocessable:api', outcome.message);
    if (outcome.code === 'INDEX_UNAVAILABLE') throw new AppError('unavailable:index', outcome.message);
    // Semantic search needs the embedding model; any other failure is the search backend's.
    throw new AppError(outcome.code === 'EMBEDDING_FAILED' ? 'unavailable:llm' : 'unavailable:index', outcome.message);
  }
  return Response.json({ results: outcome.value }, { headers: { 'cache-control': 'no-store' } });
});
