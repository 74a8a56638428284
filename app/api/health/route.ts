// GET /api/health – signed out: { status: "ok" | "degraded" } only. Signed in: reachability of the database, chunk
// index, LLM and embedder with their locations, URLs and models, the event-loop delay, and the caller's own counts.
import { getSessionUser } from '@/lib/auth/session';
import { getHealthDetails, getHealthReport, toPublicHealth } from '@/lib/health';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  const user = await getSessionUser(request.headers).catch(() => null);
  const headers = { 'cache-control': 'no-store' };
  if (!user) {
    const report = await getHealthReport();
    return Response.json(toPublicHealth(report), { status: report.database.status === 'ok' ? 200 : 503, headers });
  }
  const details = await getHealthDetails({ ownerId: user.id });
  return Response.json(details, { status: details.database.status === 'ok' ? 200 : 503, headers });
}
