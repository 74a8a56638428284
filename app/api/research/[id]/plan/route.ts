// PUT /api/research/:id/plan – edit, reorder, delete or add plan tasks
import { withUser } from '@/lib/auth/with-user';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getResearchService } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const PUT = withUser<Params>(apiRoutes['PUT /api/research/{id}/plan'], async (request, { user, params }) => {
  const body = await readJson(request, apiRoutes['PUT /api/research/{id}/plan'].body);
  const run = await getResearchService().editPlan(user.id, params.id, body);
  return Response.json({ run });
});
