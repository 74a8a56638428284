import { randomBytes } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';

export interface Credentials {
  email: string;
  password: string;
  name: string;
}

/** A fresh, unique user for each test (never shared between tests). */
export function newCredentials(prefix = 'user'): Credentials {
  const id = randomBytes(5).toString('hex');
  return {
    email: `${prefix}-${id}@example.test`,
    password: `pw-${randomBytes(9).toString('base64url')}`,
    name: `Test ${id}`,
  };
}

/** A distinct client address per test, so per-IP rate limits of one spec do not leak into another. */
function fakeClientIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${((b[2] ?? 1) % 250) + 1}`;
}

export async function signUp(page: Page, creds: Credentials): Promise<void> {
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(creds.name);
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password').fill(creds.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/documents$/);
}

export async function signIn(page: Page, creds: Credentials): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password').fill(creds.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/documents$/);
}

export const test = base.extend<{ user: Credentials }>({
  context: async ({ context }, use) => {
    await context.setExtraHTTPHeaders({ 'x-forwarded-for': fakeClientIp() });
    await use(context);
  },
  user: async ({ page }, use) => {
    const creds = newCredentials();
    await signUp(page, creds);
    await use(creds);
  },
});

export { expect };
