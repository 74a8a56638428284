import { betterAuth } from 'better-auth';
import { nextCookies } from 'better-auth/next-js';
import { getConfig } from '@/lib/config';
import { createAuthDatabaseAdapter } from '@/lib/db/auth-adapter';

/**
 * Better Auth: email + password, sessions stored in the database, CSRF origin checks and login rate limits on.
 * Created lazily so importing this module never touches the database (e.g. during `next build`).
 */
function createAuth() {
  const config = getConfig();
  const localAliases = config.trustedOrigins.flatMap((origin) =>
    origin.includes('://localhost') ? [origin, origin.replace('://localhost', '://127.0.0.1')] : [origin],
  );
  return betterAuth({
    appName: 'DocuChat',
    baseURL: config.appUrl,
    secret: config.authSecret,
    trustedOrigins: localAliases,
    database: createAuthDatabaseAdapter(),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
    },
    session: {
      expiresIn: 60 * 60 * 24 * 14,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 120,
      customRules: {
        '/sign-in/email': { window: 60, max: config.rateLimits.signInPerMinute },
        '/sign-up/email': { window: 60, max: config.rateLimits.signUpPerMinute },
      },
    },
    advanced: {
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for', 'x-real-ip'] },
    },
    telemetry: { enabled: false },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { docuchatAuth?: Auth };

export function getAuth(): Auth {
  globalForAuth.docuchatAuth ??= createAuth();
  return globalForAuth.docuchatAuth;
}
