import { type NextRequest, NextResponse } from 'next/server';

/**
 * Two jobs, neither of them authorisation:
 *  1. Security headers on every page: a per-request nonce Content-Security-Policy (Next.js applies the nonce to
 *     its own scripts), frame-ancestors 'none', nosniff, a strict referrer policy, HSTS under HTTPS.
 *  2. A convenience redirect of signed-out visitors of app pages to sign-in. Every page, route handler and
 *     action still checks the session itself.
 * API routes are not matched: uploads stream through route handlers and a proxy would buffer (and truncate)
 * their bodies; next.config.ts gives API responses their own headers.
 */
const SESSION_COOKIES = ['better-auth.session_token', '__Secure-better-auth.session_token'];
const APP_PAGES = ['/documents', '/chat', '/shares', '/settings'];

export function buildCsp(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws:' : ''}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ].join('; ');
}

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const needsSession = APP_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  if (needsSession && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const url = request.nextUrl.clone();
    url.pathname = '/sign-in';
    url.search = `?next=${encodeURIComponent(`${pathname}${search}`)}`;
    return withSecurityHeaders(NextResponse.redirect(url), request, null);
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = buildCsp(nonce, process.env.NODE_ENV === 'development');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), request, csp);
}

function withSecurityHeaders(response: NextResponse, request: NextRequest, csp: string | null): NextResponse {
  if (csp) response.headers.set('content-security-policy', csp);
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('x-frame-options', 'DENY');
  response.headers.set(
    'referrer-policy',
    request.nextUrl.pathname.startsWith('/share/') ? 'no-referrer' : 'strict-origin-when-cross-origin',
  );
  response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=()');
  if (request.nextUrl.pathname.startsWith('/share/')) {
    response.headers.set('x-robots-tag', 'noindex, nofollow');
    response.headers.set('cache-control', 'private, no-store');
  }
  const https = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  if (https) response.headers.set('strict-transport-security', 'max-age=63072000; includeSubDomains');
  return response;
}

export const config = {
  matcher: [{ source: '/((?!api/|_next/static|_next/image|favicon.ico).*)' }],
};
