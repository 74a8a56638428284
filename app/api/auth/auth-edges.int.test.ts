import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Sign-up and sign-in through the real Better Auth route (app/api/auth/[...all]): sign-up answers alike for a taken
 * email, a per-account throttle that changing address does not reset, and per-address limits keyed on the socket's
 * address unless a trusted proxy forwarded the request. TRUSTED_PROXIES=127.0.0.1 stands in for a reverse proxy
 * in front of the app; requests without a socket stamp are treated as coming through it.
 */

const APP = 'http://localhost:3000';
let POST: (request: Request) => Promise<Response>;
let stampFor: (ip: string) => string;
let PEER_HEADER: string;
let ipCounter = 0;

function nextIp(): string {
  ipCounter++;
  return `198.51.${100 + Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

async function send(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return POST(
    new Request(`${APP}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: APP, 'x-forwarded-for': nextIp(), ...headers },
      body: JSON.stringify(body),
    }),
  );
}

const signUp = (email: string, password: string, headers: Record<string, string> = {}) =>
  send('/sign-up/email', { email, password, name: 'Edge' }, headers);
const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  send('/sign-in/email', { email, password }, headers);

beforeAll(async () => {
  process.env.APP_URL = APP;
  process.env.TRUSTED_PROXIES = '127.0.0.1';
  process.env.OLLAMA_BASE_URL = 'http://127.0.0.1:9';
  // the shipped defaults for the per-address limits (test/setup-env.ts raises them for other suites)
  process.env.RATE_LIMIT_SIGN_IN_PER_MINUTE = '5';
  process.env.RATE_LIMIT_SIGN_UP_PER_MINUTE = '5';
  const { ensureDbReady } = await import('@/lib/db/client');
  await ensureDbReady();
  ({ POST } = await import('@/app/api/auth/[...all]/route'));
  const peer = await import('@/lib/net/peer-address');
  PEER_HEADER = peer.PEER_HEADER;
  stampFor = (ip) => {
    const fake = { headers: {}, socket: { remoteAddress: ip } } as unknown as http.IncomingMessage;
    peer.stampPeer(fake);
    return String(fake.headers[PEER_HEADER]);
  };
});

function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return value === null ? null : typeof value;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

describe('sign-up does not tell whether an email exists', () => {
  it('same status, same body shape, no session either way; only the owner can then sign in', async () => {
    const email = `taken-${randomUUID().slice(0, 8)}@example.test`;
    const fresh = await signUp(email, 'the-owners-password-1');
    const again = await signUp(email.toUpperCase(), 'an-attackers-guess-22');
    expect(fresh.status).toBe(200);
    expect(again.status).toBe(fresh.status);
    const [a, b] = [
      (await fresh.json()) as { user: { email: string } },
      (await again.json()) as { user: { email: string } },
    ];
    expect(shape(b)).toEqual(shape(a));
    expect(b.user.email).toBe(a.user.email);
    for (const r of [fresh, again])
      expect(r.headers.getSetCookie().filter((c) => /session_token=/.test(c))).toEqual([]);

    const owner = await signIn(email, 'the-owners-password-1');
    expect(owner.status).toBe(200);
    expect(owner.headers.getSetCookie().some((c) => /session_token=/.test(c))).toBe(true);
    const attacker = await signIn(email, 'an-attackers-guess-22');
    expect(attacker.status).toBe(401);
  });

  it('takes similar time for a taken and a new email (the password is hashed either way)', async () => {
    const taken = `timing-${randomUUID().slice(0, 8)}@example.test`;
    expect((await signUp(taken, 'a-long-password-1')).status).toBe(200);
    const time = async (email: string) => {
      const started = performance.now();
      const response = await signUp(email, 'a-long-password-1');
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    const fresh: number[] = [];
    const existing: number[] = [];
    for (let i = 0; i < 5; i++) {
      fresh.push(await time(`timing-new-${randomUUID().slice(0, 8)}@example.test`));
      existing.push(await time(taken));
    }
    console.log(
      `[auth] sign-up median: new email ${median(fresh).toFixed(1)} ms, taken email ${median(existing).toFixed(1)} ms`,
    );
    // without the hash a taken email answers in a few ms against tens for a new one
    expect(median(existing)).toBeGreaterThan(median(fresh) * 0.4);
  });
});

describe('per-account sign-in throttle', () => {
  it('locks an account after repeated failures from ever-changing addresses, with exponential backoff', async () => {
    const email = `victim-${randomUUID().slice(0, 8)}@example.test`;
    await signUp(email, 'the-right-password-1');
    for (let i = 0; i < 5; i++) expect((await signIn(email, `wrong-${i}-password`)).status).toBe(401);
    // a new address changes nothing; even the right password waits
    const locked = await signIn(` ${email.toUpperCase()} `, 'the-right-password-1');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await signIn(email, 'wrong-again-password')).status).toBe(401);
    // the next wait doubles: one second later it is still locked
    await new Promise((r) => setTimeout(r, 1100));
    expect((await signIn(email, 'the-right-password-1')).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await signIn(email, 'the-right-password-1')).status).toBe(200);
    // a success starts over
    expect((await signIn(email, 'wrong-after-success')).status).toBe(401);
    expect((await signIn(email, 'the-right-password-1')).status).toBe(200);
  });

  it('treats an email without an account exactly alike', async () => {
    const ghost = `ghost-${randomUUID().slice(0, 8)}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(ghost, `guess-${i}-password`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('per-address limits', () => {
  it('key on the socket address: a client rotating X-Forwarded-For is still one address', async () => {
    const stamp = stampFor('203.0.113.50');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const email = `rotate-${i}-${randomUUID().slice(0, 8)}@example.test`;
      statuses.push((await signIn(email, 'wrong-password-1', { [PEER_HEADER]: stamp })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // another socket address has its own allowance
    const other = await signIn(`other-${randomUUID().slice(0, 8)}@example.test`, 'wrong-password-1', {
      [PEER_HEADER]: stampFor('203.0.113.51'),
    });
    expect(other.status).toBe(401);
  });

  it('a forged stamp is ignored: the request counts as coming through the trusted proxy', async () => {
    const forged = { [PEER_HEADER]: 'forged-token 203.0.113.50' };
    const response = await signIn(`forged-${randomUUID().slice(0, 8)}@example.test`, 'wrong-password-1', forged);
    expect(response.status).toBe(401);
  });
});
