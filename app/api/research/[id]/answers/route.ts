// POST /api/research/:id/answers – answer or skip the clarifying questions; the plan follows
import { withUser } from '@/lib/auth/with-user';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { getResearchService } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const POST = withUser<Params>(
  apiRoutes['POST /api/research/{id}/answers'],
  async (request, { user, params }) => {
    const body = await readJson(request, apiRoutes['POST /api/research/{id}/answers'].body);
    const run = await getResearchService().answer(user.id, params.id, body);
    return Response.json({ run });
  },
);
