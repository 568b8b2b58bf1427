import { mailMessages, validationMessages } from '@reskin/contract';
import {
  test,
  expect,
  content,
  errorToast,
  openWithToken,
  storedToken,
  successToast,
  uniqueUsername,
} from '../fixtures/test';
import { firstLink, MailAppServer } from '../fixtures/mail-server';

/**
 * The Account screen's password change, and the mail features as a server without SMTP_URL shows them (the
 * suite's server runs without mail); then, on a second server with mail on and a real SMTP server (MailAppServer),
 * forgot -> reset password and the verification of an address in the browser.
 */
test.describe('account password and mail', () => {
  test('the Account screen changes the password: the session goes on, other sessions end, the old password no longer logs in', async ({
    page,
    api,
    makeUser,
  }) => {
    const user = await makeUser();
    const otherSession = await api.login(user.email, user.password);
    await openWithToken(page, user.token, '/account');
    const form = page.getByRole('form', { name: 'Change password' });
    const submit = form.getByRole('button', { name: 'Change Password', exact: true });
    await expect(submit).toBeDisabled();

    // A wrong current password: on its field (and the client's toast); nothing changes.
    await form.getByLabel('Current password').fill('not-the-password');
    await form.getByLabel('New password', { exact: true }).fill('Fresh-pass-2024');
    await form.getByLabel('New password again').fill('Fresh-pass-2024');
    await submit.click();
    await expect(
      form.locator('.invalid-feedback', { hasText: validationMessages.currentPasswordWrong }),
    ).toBeVisible();
    await expect(errorToast(page, validationMessages.currentPasswordWrong)).toBeVisible();
    expect(await storedToken(page)).toBe(user.token);

    // Different confirmation: the form says so and cannot be sent.
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password again').fill('Fresh-pass-2025');
    await expect(form.locator('.invalid-feedback', { hasText: mailMessages.passwordsDiffer })).toBeVisible();
    await expect(submit).toBeDisabled();
    await form.getByLabel('New password again').fill('Fresh-pass-2024');

    const changed = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith('/api/user/update/password'),
    );
    await submit.click();
    expect((await changed).status()).toBe(200);
    await expect(successToast(page, mailMessages.passwordChanged)).toBeVisible();
    // This session goes on with the answered token; the other one has ended.
    await expect.poll(() => storedToken(page)).not.toBe(user.token);
    await page.reload();
    await expect(content(page).locator('#username')).toHaveValue(user.username);
    expect((await api.get('/user/me', otherSession)).status()).toBe(401);
    expect((await api.loginResponse(user.email, user.password)).status()).toBe(401);
    expect((await api.loginResponse(user.email, 'Fresh-pass-2024')).status()).toBe(200);
  });

  test("a common new password shows the server's rule under the field", async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password', { exact: true }).fill('password123');
    await form.getByLabel('New password again').fill('password123');
    await form.getByRole('button', { name: 'Change Password', exact: true }).click();
    await expect(
      form.locator('.invalid-feedback', { hasText: validationMessages.commonPassword }),
    ).toBeVisible();
    expect(await storedToken(page)).toBe(user.token);
  });

  test('with mail off the login page has no "Forgot password?" link, the form says mail is off, and no mail setting or banner shows', async ({
    page,
    makeUser,
  }) => {
    await page.goto('/login');
    await expect(content(page).getByRole('button', { name: 'Login', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveCount(0);
    await page.goto('/forgot-password');
    await expect(content(page).getByText(mailMessages.mailOff)).toBeVisible();
    await expect(content(page).getByLabel('Email')).toHaveCount(0);

    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page.getByRole('form', { name: 'Change password' })).toBeVisible();
    await expect(page.getByLabel("Mail me the inbox's events")).toHaveCount(0);
    await expect(page.getByText(mailMessages.verifyBanner)).toHaveCount(0);
  });

  test('a reset or verification link that is not valid says so and offers a new one', async ({ page }) => {
    await page.goto('/reset-password?token=not-a-real-token-at-all-0123456789abcdef');
    await content(page).getByLabel('New password', { exact: true }).fill('Fresh-pass-2024');
    await content(page).getByLabel('New password again').fill('Fresh-pass-2024');
    await content(page).getByRole('button', { name: 'Set the new password' }).click();
    await expect(content(page).getByText(mailMessages.tokenInvalid)).toBeVisible();
    await expect(content(page).getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
    await page.goto('/verify-email?token=not-a-real-token-at-all-0123456789abcdef');
    await expect(content(page).getByText(mailMessages.tokenInvalid)).toBeVisible();
  });
});

test.describe('with mail on (a second server and a real SMTP server)', () => {
  test.describe.configure({ mode: 'serial' });
  const server = new MailAppServer();
  test.beforeAll(async () => {
    await server.start();
  });
  test.afterAll(async () => {
    await server.stop();
  });

  /** A plain API call to the mail server (Node's fetch: no cookies, so no XSRF double submit applies). */
  const post = (path: string, data: unknown) =>
    fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    });

  async function signUp() {
    const username = uniqueUsername('mail');
    const body = {
      username,
      email: `${username.toLowerCase()}@example.com`,
      password: 'Passw0rd-e2e-mail',
      firstName: 'Mailed',
      lastName: 'Person',
      phone: '5551234567',
      dataProtectionRegulationVersion: 1,
    };
    const response = await post('/user/signup', body);
    expect(response.status, await response.text()).toBe(201);
    return body;
  }

  async function logIn(page: import('@playwright/test').Page, email: string, password: string) {
    await page.goto(`${server.url}/login`);
    await content(page).getByLabel('Email').fill(email);
    await content(page).getByLabel('Password').fill(password);
    await content(page).getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(`${server.url}/`);
  }

  test('an unverified account sees the banner; "Send again" mails a link that verifies the address', async ({
    page,
  }) => {
    const user = await signUp();
    await expect.poll(() => server.to(user.email).length).toBe(1);
    await logIn(page, user.email, user.password);
    const banner = page.getByTestId('verify-email-banner');
    await expect(banner).toContainText(mailMessages.verifyBanner);
    await banner.getByRole('button', { name: 'Send again' }).click();
    await expect(successToast(page, mailMessages.verificationSent)).toBeVisible();
    await expect.poll(() => server.to(user.email).length).toBe(2);
    const link = firstLink(server.to(user.email)[1]!);
    expect(link.startsWith(`${server.url}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await expect(content(page).getByText(mailMessages.verified)).toBeVisible();
    await page.goto(`${server.url}/account`);
    await expect(content(page).locator('#username')).toHaveValue(user.username);
    await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);
    // The mail setting shows while mail is on.
    await expect(page.getByLabel("Mail me the inbox's events")).toHaveValue('each');
  });

  test('"Forgot password?" on the login page mails a reset link that sets a new password once', async ({
    page,
  }) => {
    const user = await signUp();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(`${server.url}/forgot-password`);
    await content(page).getByLabel('Email').fill(user.email);
    await content(page).getByRole('button', { name: 'Send the link' }).click();
    await expect(content(page).getByText(mailMessages.forgotAccepted)).toBeVisible();
    const resetMail = () =>
      server.to(user.email).find((mail) => mail.subject.startsWith('Reset your password'));
    await expect.poll(() => resetMail() !== undefined).toBe(true);
    const link = firstLink(resetMail()!);
    expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);

    await page.goto(link);
    await content(page).getByLabel('New password', { exact: true }).fill('Reset-by-mail-77');
    await content(page).getByLabel('New password again').fill('Reset-by-mail-77');
    await content(page).getByRole('button', { name: 'Set the new password' }).click();
    await expect(successToast(page, mailMessages.passwordReset)).toBeVisible();
    await expect(page).toHaveURL(`${server.url}/login`);
    await logIn(page, user.email, 'Reset-by-mail-77');
    expect((await post('/user/login', { email: user.email, password: user.password })).status).toBe(401);

    // The link works once.
    await page.goto(link);
    await content(page).getByLabel('New password', { exact: true }).fill('Another-pass-88');
    await content(page).getByLabel('New password again').fill('Another-pass-88');
    await content(page).getByRole('button', { name: 'Set the new password' }).click();
    await expect(content(page).getByText(mailMessages.tokenUsed)).toBeVisible();
  });
});
