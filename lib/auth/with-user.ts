import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { AppError } from '@/lib/errors';
import { handleRouteError } from '@/lib/route-error';

export interface UserRouteContext<P> {
  user: SessionUser;
  params: P;
}

/**
 * Wraps a route handler so it runs only for a signed-in user, rejects cross-site state-changing requests,
 * and turns any thrown error into the typed JSON error response.
 */
export function withUser<P = Record<string, string>>(
  handler: (request: Request, context: UserRouteContext<P>) => Promise<Response>,
) {
  return async (request: Request, routeContext: { params: Promise<P> }): Promise<Response> => {
    try {
      assertSameOrigin(request);
      const user = await getSessionUser(request.headers);
      if (!user) throw new AppError('unauthorized:auth');
      const params = routeContext?.params ? await routeContext.params : ({} as P);
      return await handler(request, { user, params });
    } catch (error) {
      return handleRouteError(error);
    }
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests must come from our own pages: a browser sends `Sec-Fetch-Site` (same-origin) or an
 * `Origin` equal to the request's host. Non-browser clients (curl, the CLI) send neither and are allowed,
 * since they cannot carry a victim's cookies.
 */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none')
    throw new AppError('forbidden:api', 'Cross-site request refused.');
  const origin = request.headers.get('origin');
  if (origin && origin !== 'null') {
    const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new AppError('forbidden:api', 'Cross-site request refused.');
    }
    if (!host || originHost !== host) throw new AppError('forbidden:api', 'Cross-site request refused.');
  } else if (origin === 'null') {
    throw new AppError('forbidden:api', 'Cross-site request refused.');
  }
}
