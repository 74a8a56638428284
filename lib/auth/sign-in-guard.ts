import { APIError, createAuthMiddleware } from 'better-auth/api';
import {
  type AccountThrottlePolicy,
  accountThrottleKey,
  effectiveFailures,
  lockDelayMs,
} from '@/lib/auth/account-throttle';
import { clearSignInAttempts, reserveSignInAttempt } from '@/lib/db/sign-in-throttle';

const SIGN_IN_PATH = '/sign-in/email';

/**
 * Better Auth hooks for the per-account throttle (account-throttle.ts): before a password sign-in the attempt is
 * counted or refused with 429 and Retry-After (the same answer as the per-address limit); a sign-in that made a
 * session clears the count.
 */
export function signInGuardHooks({ secret, policy }: { secret: string; policy: AccountThrottlePolicy }) {
  const keyOf = (body: unknown): string | null => {
    const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined;
    return typeof email === 'string' && email.trim() ? accountThrottleKey(email, secret) : null;
  };
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const key = keyOf(ctx.body);
      if (!key) return;
      const now = new Date();
      const decision = await reserveSignInAttempt({
        key,
        now,
        forgetBefore: new Date(now.getTime() - policy.quietResetMs),
        lockedForMs: (failures) => lockDelayMs(failures, policy),
        effectiveFailures: (state, now) => effectiveFailures(state, now, policy),
      });
      if (decision.allowed) return;
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new APIError(
        'TOO_MANY_REQUESTS',
        { message: 'Too many requests. Please try again later.', code: 'TOO_MANY_ATTEMPTS' },
        { 'X-Retry-After': String(seconds) },
      );
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH || !ctx.context.newSession) return;
      const key = keyOf(ctx.body);
      if (key) await clearSignInAttempts({ key });
    }),
  };
}
