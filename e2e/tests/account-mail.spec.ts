import { mailMessages, validationMessages } from '@reskin/contract';
import { test, expect, content, errorToast, openWithToken, storedToken, successToast } from '../fixtures/test';

/**
 * Issue 28: the Account screen's password change, and the mail features as a server without SMTP_URL shows them (the
 * e2e server runs without mail; forgot and reset password by mail are tested against a real SMTP server in
 * apps/server/test/mail.test.ts).
 */
test.describe('issue 28: account password and mail', () => {
  test('issue 28: the Account screen changes the password: the session goes on, other sessions end, the old password no longer logs in', async ({
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
    await expect(form.locator('.invalid-feedback', { hasText: validationMessages.currentPasswordWrong })).toBeVisible();
    await expect(errorToast(page, validationMessages.currentPasswordWrong)).toBeVisible();
    expect(await storedToken(page)).toBe(user.token);

    // Different confirmation: the form says so and cannot be sent.
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password again').fill('Fresh-pass-2025');
    await expect(form.locator('.invalid-feedback', { hasText: mailMessages.passwordsDiffer })).toBeVisible();
    await expect(submit).toBeDisabled();
    await form.getByLabel('New password again').fill('Fresh-pass-2024');

    const changed = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/user/update/password'));
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

  test('issue 28: a common new password shows the server\'s rule under the field', async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password', { exact: true }).fill('password123');
    await form.getByLabel('New password again').fill('password123');
    await form.getByRole('button', { name: 'Change Password', exact: true }).click();
    await expect(form.locator('.invalid-feedback', { hasText: validationMessages.commonPassword })).toBeVisible();
    expect(await storedToken(page)).toBe(user.token);
  });

  test('issue 28: with mail off the login page has no "Forgot password?" link, the form says mail is off, and no mail setting or banner shows', async ({
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

  test('issue 28: a reset or verification link that is not valid says so and offers a new one', async ({ page }) => {
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
