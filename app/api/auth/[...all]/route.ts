// GET|POST /api/auth/* – Better Auth (sign-up, sign-in, sign-out, session)
import { getAuth } from '@/lib/auth/auth';
import { getConfig } from '@/lib/config';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { withBodyLimit } from '@/lib/http/read-body';
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

// Signed-out callers reach this route: their bodies are capped before Better Auth reads (and buffers) them.
const limited = withBodyLimit(handle, () => getConfig().requestLimits.authBytes);

export const GET = limited;
export const POST = limited;
