import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 8, cookies under HTTPS: with APP_URL on https the session cookie is Secure (with the __Secure- prefix),
 * httpOnly and SameSite=Lax. (The browser suite runs on http; e2e/isolation.spec.ts checks httpOnly and
 * SameSite there.) This file sets APP_URL before any app module is loaded; vitest gives each file its own
 * module graph, so no other test sees it.
 */

const APP_URL = 'https://docuchat.example';
let setCookies: string[] = [];

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  const { getConfig } = await import('@/lib/config');
  expect(getConfig().secureCookies).toBe(true);
  const { getAuth } = await import('@/lib/auth/auth');
  const { ensureDbReady } = await import('@/lib/db/client');
  await ensureDbReady();
  const post = (path: string, body: unknown) =>
    getAuth().handler(
      new Request(`${APP_URL}/api/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: APP_URL },
        body: JSON.stringify(body),
      }),
    );
  const email = `https-${Date.now()}@example.test`;
  // sign-up opens no session (it answers alike for a taken email): the cookie comes from signing in
  expect((await post('/sign-up/email', { email, password: 'a-long-password-1', name: 'Https' })).status).toBe(200);
  const response = await post('/sign-in/email', { email, password: 'a-long-password-1' });
  expect(response.status).toBe(200);
  setCookies = response.headers.getSetCookie();
});

describe('session cookies under HTTPS', () => {
  it('are Secure, __Secure- prefixed, httpOnly and SameSite=Lax', () => {
    const session = setCookies.find((c) => /session_token=/.test(c)) ?? '';
    expect(session).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    for (const cookie of setCookies) expect(cookie, cookie.split('=')[0]).toMatch(/;\s*Secure/i);
  });

  it('a session cookie without the prefix (as an http page would set it) is not accepted', async () => {
    const { getAuth } = await import('@/lib/auth/auth');
    const session = setCookies.find((c) => /session_token=/.test(c)) ?? '';
    const value = session.split(';')[0]?.split('=').slice(1).join('=') ?? '';
    const withPrefix = await getAuth().api.getSession({
      headers: new Headers({ cookie: `__Secure-better-auth.session_token=${value}` }),
    });
    expect(withPrefix?.user.email).toMatch(/^https-/);
    const withoutPrefix = await getAuth().api.getSession({
      headers: new Headers({ cookie: `better-auth.session_token=${value}` }),
    });
    expect(withoutPrefix).toBeNull();
  });
});
