import { type NextRequest, NextResponse } from 'next/server';

/**
 * Convenience redirect only: signed-out visitors of app pages go to sign-in without a round trip through the
 * page. Every page, route handler and action still checks the session itself. API routes are not matched
 * (uploads stream through route handlers, and a proxy would buffer and truncate their bodies).
 */
const SESSION_COOKIES = ['better-auth.session_token', '__Secure-better-auth.session_token'];

export function proxy(request: NextRequest) {
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (!hasSession) {
    const url = request.nextUrl.clone();
    const next = `${request.nextUrl.pathname}${request.nextUrl.search}`;
    url.pathname = '/sign-in';
    url.search = `?next=${encodeURIComponent(next)}`;
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

export const config = {
  matcher: ['/documents/:path*', '/chat/:path*', '/shares/:path*'],
};
