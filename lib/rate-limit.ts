import { takeRateLimitToken } from '@/lib/db/rate-limits';
import { AppError, type ErrorSurface } from '@/lib/errors';

/**
 * Fixed-window rate limits per user and action, kept in the database (the same table Better Auth uses for
 * sign-in limits, with an `app:` key prefix) so every app instance shares them. Over the limit: 429 with
 * Retry-After.
 */
export async function enforceRateLimit({
  userId,
  action,
  max,
  windowSeconds = 60,
  surface,
}: {
  userId: string;
  action: string;
  max: number;
  windowSeconds?: number;
  surface: ErrorSurface;
}): Promise<void> {
  const decision = await takeRateLimitToken({ key: `app:${action}:${userId}`, max, windowMs: windowSeconds * 1000 });
  if (decision.allowed) return;
  if (decision.retryAfterSeconds === null) {
    throw new AppError(`rate_limited:${surface}`, 'Too many requests at once. Try again in a moment.', {
      retryAfter: 1,
    });
  }
  const retryAfter = decision.retryAfterSeconds;
  throw new AppError(`rate_limited:${surface}`, `Too many requests. Try again in ${retryAfter} s.`, { retryAfter });
}
