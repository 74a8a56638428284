import { betterAuth } from 'better-auth';
import { nextCookies } from 'better-auth/next-js';
import { DEFAULT_ACCOUNT_THROTTLE } from '@/lib/auth/account-throttle';
import { signInGuardHooks } from '@/lib/auth/sign-in-guard';
import { getConfig } from '@/lib/config';
import { createAuthDatabaseAdapter } from '@/lib/db/auth-adapter';
import { CLIENT_IP_HEADER } from '@/lib/net/request-client-ip';

/**
 * Better Auth: email + password, sessions stored in the database, CSRF origin checks and login rate limits on.
 * Created lazily so importing this module never touches the database (e.g. during `next build`).
 *
 * - Sign-up answers alike whether or not the email exists: `autoSignIn: false` makes Better Auth return 200 with a
 *   user object (a synthetic one for a taken email, after hashing the password all the same) and no session; the
 *   sign-up form then signs in, which succeeds only for the password's owner.
 * - Per-address limits key on the address app/api/auth resolves (lib/net: the socket's peer, or forwarding headers
 *   from TRUSTED_PROXIES only); a per-account throttle with exponential backoff (sign-in-guard.ts) stands beside.
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
      autoSignIn: false,
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
      // only the address app/api/auth/[...all] resolved and wrote; never a header the client controls
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    hooks: signInGuardHooks({
      secret: config.authSecret,
      policy: {
        ...DEFAULT_ACCOUNT_THROTTLE,
        freeAttempts: config.rateLimits.signInFreeAttemptsPerAccount,
        maxDelayMs: config.rateLimits.signInMaxDelaySeconds * 1000,
      },
    }),
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
