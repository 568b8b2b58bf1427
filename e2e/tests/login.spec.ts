import { messages, type ErrorEnvelope } from '@reskin/contract';
import { test, expect, cardTitle, errorToast, loginViaUi, navLink, openWithToken, toast } from '../fixtures/test';

test.describe('login', () => {
  test('[LOG-1] card Login with email and password; Login disabled until valid', async ({ page }) => {
    await page.goto('/login');
    await expect(cardTitle(page, 'Login')).toBeVisible();
    const email = page.locator('#email');
    const password = page.locator('#password');
    const button = page.getByRole('button', { name: 'Login', exact: true });
    await expect(email).toHaveAttribute('name', 'email');
    await expect(password).toHaveAttribute('name', 'password');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(button).toBeDisabled();

    await email.fill('someone@example.com');
    await expect(button).toBeDisabled();
    await password.fill('1234567');
    await expect(button).toBeDisabled();
    await password.fill('12345678');
    await expect(button).toBeEnabled();
    await email.fill('ab');
    await expect(button).toBeDisabled();
    await email.fill('abc');
    await expect(button).toBeEnabled();
    await email.fill('');
    await expect(button).toBeDisabled();
  });

  test('[LOG-1][RT-6] logging in through the form works and goes to the root route', async ({ page, makeUser }) => {
    const user = await makeUser();
    await loginViaUi(page, user.email, user.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(navLink(page, 'Login')).toHaveCount(0);
  });

  test('[LOG-2] an already logged-in user visiting login is redirected to /', async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token);
    await expect(navLink(page, 'Logout')).toBeVisible();
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('#password')).toHaveCount(0);
  });

  test('[LOG-3] the email field shows a danger state while it holds the word demo, without blocking login', async ({
    page,
  }) => {
    await page.goto('/login');
    const email = page.locator('#email');
    await email.fill('someone@example.com');
    await expect(email).not.toHaveClass(/is-invalid|danger/);
    await email.fill('demo@example.com');
    await expect(email).toHaveClass(/is-invalid|danger/);
    await page.locator('#password').fill('demo12345');
    await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeEnabled();
    await email.fill('my.DEMO.account@example.com');
    await expect(email).toHaveClass(/is-invalid|danger/);
    await email.fill('someone@example.com');
    await expect(email).not.toHaveClass(/is-invalid|danger/);
  });

  test('[LOG-3] the seeded demo account can still log in through the form', async ({ page }) => {
    await loginViaUi(page, 'demo@example.com', 'demo12345');
    await expect(navLink(page, 'My Games')).toBeVisible();
  });

  test('[LOG-4][ERR-1][ERR-3] a wrong password: toast titled error.name with error.message, and the danger toast', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await page.goto('/login');
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill('wrong-password');
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/login'));
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const response = await responsePromise;
    expect(response.status()).toBe(401);
    const { error } = (await response.json()) as ErrorEnvelope;
    expect(error.details ?? []).toHaveLength(0);

    // ERR-1 without details: title error.name, body error.message.
    const serverToast = errorToast(page, error.name);
    await expect(serverToast).toBeVisible();
    await expect(serverToast).toContainText(error.message);
    // LOG-4
    await expect(errorToast(page, messages.loginFailed)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(navLink(page, 'Login')).toBeVisible();
  });

  test('[LOG-4] an unknown email shows the same danger toast', async ({ page }) => {
    await page.goto('/login');
    await page.locator('#email').fill('nobody-here@example.com');
    await page.locator('#password').fill('whatever123');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(errorToast(page, messages.loginFailed)).toBeVisible();
    await expect(toast(page, messages.loginFailed)).toHaveCount(1);
    await expect(page).toHaveURL(/\/login$/);
  });
});
