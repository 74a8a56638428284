// GET /api/research/:id – one research run (questions, plan, progress, report)
import { withUser } from '@/lib/auth/with-user';
import { apiRoutes } from '@/lib/http/api-routes';
import { getResearchService } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const GET = withUser<Params>(apiRoutes['GET /api/research/{id}'], async (_request, { user, params }) => {
  const run = await getResearchService().get(user.id, params.id);
  return Response.json({ run });
});
