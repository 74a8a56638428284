// GET|POST /api/auth/* – Better Auth (sign-up, sign-in, sign-out, session)
import { getAuth } from '@/lib/auth/auth';
import { ensureDbReady } from '@/lib/db/client';
import { withResolvedClientIp } from '@/lib/net/request-client-ip';

async function handle(request: Request): Promise<Response> {
  await ensureDbReady();
  const response = await getAuth().handler(withResolvedClientIp(request));
  if (response.status === 429 && !response.headers.has('retry-after')) {
    const headers = new Headers(response.headers);
    headers.set('retry-after', headers.get('x-retry-after') ?? '60');
    return new Response(response.body, { status: 429, headers });
  }
  return response;
}

export const GET = handle;
export const POST = handle;
