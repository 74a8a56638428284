// GET /api/health – reachability of the database, chunk index, LLM and embedder, with the configured URLs/models
import { getHealthReport } from '@/lib/health';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const report = await getHealthReport();
  return Response.json(report, {
    status: report.database.status === 'ok' ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  });
}
