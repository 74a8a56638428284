// POST /api/research/:id/cancel – cancel a research run at any step
import { withUser } from '@/lib/auth/with-user';
import { apiRoutes } from '@/lib/http/api-routes';
import { getResearchService } from '@/lib/research/for-user';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const POST = withUser<Params>(
  apiRoutes['POST /api/research/{id}/cancel'],
  async (_request, { user, params }) => {
    const run = await getResearchService().cancel(user.id, params.id);
    return Response.json({ run });
  },
);
