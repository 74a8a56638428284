import { beforeAll, describe, expect, it } from 'vitest';
import * as documentsRoute from '@/app/api/documents/route';
import { createApiKey } from '@/lib/auth/api-keys';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { createTestUser } from '@/test/factories';

/** Issue 19: requests are limited per API key and per user across all of the user's keys (429 + Retry-After). */

process.env.RATE_LIMIT_API_KEY_PER_MINUTE = '3';
process.env.RATE_LIMIT_API_USER_PER_MINUTE = '5';

const ctx = { params: Promise.resolve({}) };
const get = (key: string) =>
  documentsRoute.GET(
    new Request('http://localhost:3000/api/documents', { headers: { authorization: `Bearer ${key}` } }),
    ctx,
  );

let keys: string[] = [];
let otherUsersKey = '';

beforeAll(async () => {
  await ensureDbReady();
  const user = await createTestUser('limits');
  const other = await createTestUser('limits-other');
  const body = { name: 'k', scopes: ['read' as const] };
  keys = [(await createApiKey({ ownerId: user.id, body })).key, (await createApiKey({ ownerId: user.id, body })).key];
  otherUsersKey = (await createApiKey({ ownerId: other.id, body })).key;
});

describe('API key rate limits', () => {
  it('limit one key, then the user across keys; another user is unaffected', async () => {
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await get(keys[0] ?? '')).status);
    expect(first).toEqual([200, 200, 200, 429]);
    const over = await get(keys[0] ?? '');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({ error: { code: 'rate_limited:api' } });
    const second = [];
    for (let i = 0; i < 3; i++) second.push((await get(keys[1] ?? '')).status);
    // the user's 4th and 5th requests pass (the refused ones above were counted per key only), the 6th does not
    expect(second).toEqual([200, 200, 429]);
    expect((await get(otherUsersKey)).status).toBe(200);
  });
});
