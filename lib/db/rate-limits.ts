import { getDb } from '@/lib/db/client';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number | null };

/**
 * Counts one request against a fixed window kept in the RateLimit table (shared by every app instance; Better
 * Auth keeps its sign-in limits in the same table). Optimistic: each write is conditional on the row read, and a
 * lost race reads again. `retryAfterSeconds` is null when the row could not be updated after several races.
 */
export async function takeRateLimitToken({
  key,
  max,
  windowMs,
}: {
  key: string;
  max: number;
  windowMs: number;
}): Promise<RateLimitDecision> {
  const db = getDb();
  const now = Date.now();
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.rateLimit.findUnique({ where: { key } });
    if (!row) {
      try {
        await db.rateLimit.create({ data: { id: crypto.randomUUID(), key, count: 1, lastRequest: BigInt(now) } });
        return { allowed: true };
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
      if (reset.count === 1) return { allowed: true };
      continue;
    }
    if (row.count >= max) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
    }
    const counted = await db.rateLimit.updateMany({
      where: { key, lastRequest: row.lastRequest, count: row.count },
      data: { count: { increment: 1 } },
    });
    if (counted.count === 1) return { allowed: true };
  }
  return { allowed: false, retryAfterSeconds: null };
}
