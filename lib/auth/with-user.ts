import { bearerTokenOf, resolveApiKey } from '@/lib/auth/api-keys';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { getConfig } from '@/lib/config';
import type { ApiKeyScope } from '@/lib/db/api-keys';
import { AppError } from '@/lib/errors';
import { enforceRateLimit } from '@/lib/rate-limit';
import { handleRouteError } from '@/lib/route-error';

/** How the caller proved who they are: a browser session cookie, or an API key with its scopes. */
export type RouteAuth = { kind: 'session' } | { kind: 'key'; keyId: string; scopes: ApiKeyScope[] };

export interface UserRouteContext<P> {
  user: SessionUser;
  params: P;
  auth: RouteAuth;
}

/**
 * What a route accepts: `read` or `write` let an API key with that scope in (a session always may);
 * `session` refuses keys (e.g. managing the keys themselves). Route files pass their registry entry
 * (lib/http/api-routes.ts), which carries the scope.
 */
export interface RouteAccess {
  scope: ApiKeyScope | 'session';
}

type UserHandler<P> = (request: Request, context: UserRouteContext<P>) => Promise<Response>;
type RouteHandler<P> = (request: Request, routeContext: { params: Promise<P> }) => Promise<Response>;

/**
 * Wraps a route handler so it runs only for a signed-in user or an active API key, and turns any thrown error
 * into the typed JSON error response. Either way the handler gets the same `user.id`, so ownership holds by
 * construction. A cookie request that changes state must come from our own origin; a Bearer request carries no
 * ambient credentials and needs no Origin. An unknown, revoked or expired key answers exactly like no
 * credentials (401, same body); a key without the route's scope answers 403.
 */
export function withUser<P = Record<string, string>>(handler: UserHandler<P>): RouteHandler<P>;
export function withUser<P = Record<string, string>>(access: RouteAccess, handler: UserHandler<P>): RouteHandler<P>;
export function withUser<P = Record<string, string>>(
  accessOrHandler: RouteAccess | UserHandler<P>,
  maybeHandler?: UserHandler<P>,
): RouteHandler<P> {
  const access: RouteAccess = typeof accessOrHandler === 'function' ? { scope: 'session' } : accessOrHandler;
  const handler = typeof accessOrHandler === 'function' ? accessOrHandler : maybeHandler;
  if (!handler) throw new Error('withUser: no handler');
  return async (request: Request, routeContext: { params: Promise<P> }): Promise<Response> => {
    try {
      const { user, auth } = await authenticate(request, access);
      const params = routeContext?.params ? await routeContext.params : ({} as P);
      return await handler(request, { user, params, auth });
    } catch (error) {
      return handleRouteError(error);
    }
  };
}

async function authenticate(request: Request, access: RouteAccess): Promise<{ user: SessionUser; auth: RouteAuth }> {
  const token = bearerTokenOf(request);
  if (token === undefined) {
    assertSameOrigin(request);
    const user = await getSessionUser(request.headers);
    if (!user) throw new AppError('unauthorized:auth');
    return { user, auth: { kind: 'session' } };
  }
  const identity = await resolveApiKey(token);
  if (!identity) throw new AppError('unauthorized:auth');
  if (access.scope === 'session')
    throw new AppError('forbidden:auth', 'This route needs a signed-in session; API keys cannot use it.');
  if (!identity.scopes.includes(access.scope))
    throw new AppError('forbidden:auth', `This API key lacks the "${access.scope}" scope.`);
  const limits = getConfig().rateLimits;
  await enforceRateLimit({ userId: identity.keyId, action: 'api-key', max: limits.apiKeyPerMinute, surface: 'api' });
  await enforceRateLimit({
    userId: identity.user.id,
    action: 'api-user',
    max: limits.apiUserPerMinute,
    surface: 'api',
  });
  return { user: identity.user, auth: { kind: 'key', keyId: identity.keyId, scopes: identity.scopes } };
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
