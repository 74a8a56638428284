import { expect, newCredentials, signIn, signUp, test } from './fixtures';

test('sign up lands on the documents page with the user in the header', async ({ page }) => {
  const creds = newCredentials();
  await signUp(page, creds);
  await expect(page.getByTestId('current-user')).toContainText(creds.email);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await expect(page.getByText('No documents yet')).toBeVisible();
});

test('sign out, then sign in again', async ({ page, user }) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/documents');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdocuments/);
  await signIn(page, user);
  await expect(page.getByTestId('current-user')).toContainText(user.email);
});

test('a wrong password shows an error and does not sign in', async ({ page, user }) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('definitely-not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Wrong email or password.');
  await expect(page).toHaveURL(/\/sign-in/);
  // the session really is absent: API calls are refused
  const health = await page.request.get('/api/documents');
  expect(health.status()).toBe(401);
});

test('a signed-out visit to /documents lands on sign-in and returns after signing in', async ({ page, browser }) => {
  const creds = newCredentials();
  await signUp(page, creds);
  const fresh = await browser.newContext();
  const visitor = await fresh.newPage();
  await visitor.goto('/documents');
  await expect(visitor).toHaveURL(/\/sign-in\?next=%2Fdocuments/);
  await expect(visitor.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await visitor.getByLabel('Email').fill(creds.email);
  await visitor.getByLabel('Password').fill(creds.password);
  await visitor.getByRole('button', { name: 'Sign in' }).click();
  await expect(visitor).toHaveURL(/\/documents$/);
  await fresh.close();
});

test('repeated failed sign-ins are rate limited', async ({ page, user }) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(user.email);
  let limited = false;
  for (let attempt = 0; attempt < 10 && !limited; attempt++) {
    await page.getByLabel('Password').fill(`wrong-password-${attempt}`);
    const answered = page.waitForResponse((r) => r.url().includes('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const response = await answered;
    await expect(page.getByTestId('form-error')).toBeVisible();
    limited = response.status() === 429;
    if (limited) await expect(page.getByTestId('form-error')).toContainText('Too many attempts');
  }
  expect(limited).toBe(true);
  // even the right password is refused while limited, with Retry-After
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email: user.email, password: user.password },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(429);
  expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
});
