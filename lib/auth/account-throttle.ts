import crypto from 'node:crypto';
import type { ThrottleState } from '@/lib/db/sign-in-throttle';

/**
 * Per-account sign-in throttle with exponential backoff, beside Better Auth's per-address limit: changing
 * address does not reset it. Keyed by the normalised email (accounts that do not exist are throttled alike, so
 * the answer never tells them apart), stored hashed with the server secret.
 *
 * After `freeAttempts` attempts without a success, each further attempt must wait base · 2^(n − free) after the
 * previous one (1 s, 2 s, 4 s, … capped at `maxDelayMs`); a success, or `quietResetMs` without attempts, starts
 * over. The cap bounds how long someone who keeps guessing can lock the owner out.
 */
export interface AccountThrottlePolicy {
  freeAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  quietResetMs: number;
}

export const DEFAULT_ACCOUNT_THROTTLE: AccountThrottlePolicy = {
  freeAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  quietResetMs: 60 * 60_000,
};

/** Case, surrounding space and Unicode compatibility forms do not make a different account key. */
export function normaliseEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

export function accountThrottleKey(email: string, secret: string): string {
  return `signin:${crypto.createHmac('sha256', secret).update(normaliseEmail(email)).digest('base64url')}`;
}

/** How long after the latest attempt the account stays locked, given the attempts counted so far. */
export function lockDelayMs(failures: number, policy: AccountThrottlePolicy): number {
  if (failures < policy.freeAttempts) return 0;
  const exponent = Math.min(failures - policy.freeAttempts, 40);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}

/** The attempts that still count now: none after a quiet spell. */
export function effectiveFailures(state: ThrottleState, now: Date, policy: AccountThrottlePolicy): number {
  return now.getTime() - state.lastFailureAt.getTime() >= policy.quietResetMs ? 0 : state.failures;
}
