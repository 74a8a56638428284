import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountThrottleKey,
  effectiveFailures,
  lockDelayMs,
  normaliseEmail,
  DEFAULT_ACCOUNT_THROTTLE as policy,
} from '@/lib/auth/account-throttle';

describe('account throttle policy', () => {
  it('is free for the first attempts, then doubles up to the cap', () => {
    const delays = Array.from({ length: 16 }, (_, n) => lockDelayMs(n, policy) / 1000);
    expect(delays).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expect(lockDelayMs(10_000, policy)).toBe(policy.maxDelayMs);
  });

  it('never decreases with more failures and never exceeds the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (n) => {
        const delay = lockDelayMs(n, policy);
        expect(delay).toBeLessThanOrEqual(policy.maxDelayMs);
        expect(lockDelayMs(n + 1, policy)).toBeGreaterThanOrEqual(delay);
      }),
    );
  });

  it('forgets attempts after a quiet spell', () => {
    const last = new Date('2026-11-24T10:00:00Z');
    const state = { failures: 12, lastFailureAt: last };
    expect(effectiveFailures(state, new Date(last.getTime() + 59 * 60_000), policy)).toBe(12);
    expect(effectiveFailures(state, new Date(last.getTime() + 60 * 60_000), policy)).toBe(0);
  });

  it('keys one account however its email is typed, and hides the email', () => {
    const key = accountThrottleKey('Alice@Example.org', 'secret');
    expect(accountThrottleKey('  alice@example.org ', 'secret')).toBe(key);
    expect(accountThrottleKey('ａｌｉｃｅ@example.org', 'secret')).toBe(key);
    expect(accountThrottleKey('bob@example.org', 'secret')).not.toBe(key);
    expect(accountThrottleKey('alice@example.org', 'other-secret')).not.toBe(key);
    expect(key).not.toContain('alice');
    expect(normaliseEmail(' A@B.C ')).toBe('a@b.c');
  });
});
