import { getDb } from '@/lib/db/client';

/**
 * Storage of the per-account sign-in throttle (policy in lib/auth/account-throttle.ts). One row per account key
 * with the attempts since the last success and the time of the latest; shared by every app instance.
 */

export interface ThrottleState {
  failures: number;
  lastFailureAt: Date;
}

export type ThrottleDecision = { allowed: true; attempt: number } | { allowed: false; retryAfterMs: number };

/**
 * Atomically decides one attempt: `lockedForMs(state)` says how long after `lastFailureAt` the account stays
 * locked (0: not locked) and `effective(state, now)` what the state counts as now (e.g. reset after a quiet
 * spell). An allowed attempt is counted before the password is checked, so parallel guesses cannot all slip
 * through before the first failure is written; a success clears the count.
 */
export async function reserveSignInAttempt({
  key,
  now,
  lockedForMs,
  effectiveFailures,
  forgetBefore,
}: {
  key: string;
  now: Date;
  lockedForMs: (failures: number) => number;
  effectiveFailures: (state: ThrottleState, now: Date) => number;
  /** Rows whose latest attempt is older than this are forgotten whenever a new key appears (bounds the table). */
  forgetBefore: Date;
}): Promise<ThrottleDecision> {
  const db = getDb();
  for (let attempt = 0; attempt < 8; attempt++) {
    const row = await db.signInThrottle.findUnique({ where: { key } });
    if (!row) {
      await db.signInThrottle.deleteMany({ where: { lastFailureAt: { lt: forgetBefore } } });
      try {
        await db.signInThrottle.create({ data: { key, failures: 1, lastFailureAt: now } });
        return { allowed: true, attempt: 1 };
      } catch {
        continue; // a parallel attempt created it first
      }
    }
    const failures = effectiveFailures(row, now);
    const unlockAt = row.lastFailureAt.getTime() + lockedForMs(failures);
    if (failures > 0 && now.getTime() < unlockAt) return { allowed: false, retryAfterMs: unlockAt - now.getTime() };
    const counted = await db.signInThrottle.updateMany({
      where: { key, failures: row.failures, lastFailureAt: row.lastFailureAt },
      data: { failures: failures + 1, lastFailureAt: now },
    });
    if (counted.count === 1) return { allowed: true, attempt: failures + 1 };
  }
  return { allowed: false, retryAfterMs: 1000 };
}

/** Forgets an account's attempts (after a successful sign-in). */
export async function clearSignInAttempts({ key }: { key: string }): Promise<void> {
  await getDb().signInThrottle.deleteMany({ where: { key } });
}

/** The stored state of an account key (tests and diagnostics). */
export async function readSignInThrottle({ key }: { key: string }): Promise<ThrottleState | null> {
  return getDb().signInThrottle.findUnique({ where: { key }, select: { failures: true, lastFailureAt: true } });
}
