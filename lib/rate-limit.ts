import { getDb } from '@/lib/db/client';
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
  const db = getDb();
  const key = `app:${action}:${userId}`;
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.rateLimit.findUnique({ where: { key } });
    if (!row) {
      try {
        await db.rateLimit.create({ data: { id: crypto.randomUUID(), key, count: 1, lastRequest: BigInt(now) } });
        return;
      } catch {
        continue; // another request created it first
      }
    }
    const windowStart = Number(row.lastRequest);
    if (now - windowStart >= windowMs) {
      const reset = await db.rateLimit.updateMany({
        where: { key, lastRequest: row.lastRequest },
        data: { count: 1, lastRequest: BigInt(now) },
      });
      if (reset.count === 1) return;
      continue;
    }
    if (row.count >= max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      throw new AppError(`rate_limited:${surface}`, `Too many requests. Try again in ${retryAfter} s.`, { retryAfter });
    }
    const counted = await db.rateLimit.updateMany({
      where: { key, lastRequest: row.lastRequest, count: row.count },
      data: { count: { increment: 1 } },
    });
    if (counted.count === 1) return;
  }
  throw new AppError(`rate_limited:${surface}`, 'Too many requests at once. Try again in a moment.', { retryAfter: 1 });
}
