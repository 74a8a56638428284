import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady } from '@/lib/db/client';
import { readSignInThrottle, reserveSignInAttempt } from '@/lib/db/sign-in-throttle';

beforeAll(async () => {
  await ensureDbReady();
});

const lockAfterFive = (failures: number) => (failures >= 5 ? 60_000 : 0);
const asStored = (state: { failures: number }) => state.failures;

describe('sign-in throttle storage', () => {
  it('parallel attempts cannot all slip through before the lock: at most the free ones pass', async () => {
    const key = `test:${randomUUID()}`;
    const now = new Date();
    const decisions = await Promise.all(
      Array.from({ length: 20 }, () =>
        reserveSignInAttempt({
          key,
          now,
          lockedForMs: lockAfterFive,
          effectiveFailures: asStored,
          forgetBefore: new Date(0),
        }),
      ),
    );
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeGreaterThan(0);
    expect(allowed).toBeLessThanOrEqual(5);
    expect((await readSignInThrottle({ key }))?.failures).toBe(allowed);
  });

  it('forgets stale keys when a new one appears', async () => {
    const stale = `test:${randomUUID()}`;
    const long = new Date(Date.now() - 2 * 3_600_000);
    await reserveSignInAttempt({
      key: stale,
      now: long,
      lockedForMs: lockAfterFive,
      effectiveFailures: asStored,
      forgetBefore: new Date(0),
    });
    expect(await readSignInThrottle({ key: stale })).not.toBeNull();
    await reserveSignInAttempt({
      key: `test:${randomUUID()}`,
      now: new Date(),
      lockedForMs: lockAfterFive,
      effectiveFailures: asStored,
      forgetBefore: new Date(Date.now() - 3_600_000),
    });
    expect(await readSignInThrottle({ key: stale })).toBeNull();
  });
});
