import { RoleType, messages, roleName, validationMessages, type RoleTypeId } from '@reskin/contract';
import {
  test,
  expect,
  content,
  decodeTokenPayload,
  errorToast,
  navLink,
  openWithToken,
  storedToken,
  successToast,
  uniqueUsername,
} from '../fixtures/test';
import type { Locator, Page } from '@playwright/test';

/** The read-only role text: shown as text or as a read-only input's value. */
function roleText(page: Page, role: RoleTypeId): Locator {
  const name = roleName(role);
  return content(page)
    .getByText(name, { exact: true })
    .or(content(page).locator(`input[readonly][value="${name}"], input[disabled][value="${name}"]`))
    .first();
}

/**
 * Records, from the first byte of the page on, whether a loading indicator (role=status) was in the DOM
 * before the account form showed, without slowing or faking any request.
 */
async function watchForSpinner(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { spinnerSeen: false, spinnerBeforeForm: false };
    (window as unknown as { __spinner: typeof state }).__spinner = state;
    const check = () => {
      const spinner = document.querySelector('[role="status"]');
      const form = document.querySelector('#username');
      if (spinner) {
        state.spinnerSeen = true;
        if (!form) state.spinnerBeforeForm = true;
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

/** The confirmation 'Suspend My Account' opens, found by its question. */
function confirmSuspend(page: Page): Locator {
  return page.getByRole('dialog').filter({ hasText: messages.confirmSuspendAccount });
}

test.describe('account settings', () => {
  test('[ACC-1] a loading indicator until the user loads, then username, email, role text, Save and Suspend', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await watchForSpinner(page);
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    await expect(page.locator('#email')).toHaveValue(user.email);
    await expect(roleText(page, RoleType.User)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Suspend My Account', exact: true })).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    const seen = await page.evaluate(
      () => (window as unknown as { __spinner: { spinnerBeforeForm: boolean } }).__spinner.spinnerBeforeForm,
    );
    expect(seen, 'a role=status indicator showed before the account form').toBe(true);
  });

  test('[ACC-1] the role text reads Admin for an administrator and Other for the demo role', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token, '/account');
    await expect(page.locator('#username')).toHaveValue(admin.username);
    await expect(roleText(page, RoleType.Admin)).toBeVisible();

    const demo = await makeUser(RoleType.Demo);
    await openWithToken(page, demo.token, '/account');
    await expect(page.locator('#username')).toHaveValue(demo.username);
    await expect(roleText(page, RoleType.Demo)).toBeVisible();
  });

  test('[ACC-2][ERR-3] Save toasts success and replaces the stored token with the returned one', async ({
    page,
    api,
    makeUser,
  }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    const before = await storedToken(page);
    expect(before).toBe(user.token);

    const newName = uniqueUsername('acc');
    await page.locator('#username').fill(newName);
    const responsePromise = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().endsWith('/api/user/update'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const response = await responsePromise;
    expect(response.status()).toBe(200);
    const returned = ((await response.json()) as { token: string }).token;

    await expect(successToast(page, messages.accountSaved)).toBeVisible();
    await expect.poll(() => storedToken(page)).toBe(returned);
    expect(returned).not.toBe(before);
    const payload = decodeTokenPayload(returned) as { user: { username: string; id: number } };
    expect(payload.user).toMatchObject({ id: user.id, username: newName });

    // The change is real on the server, and the stored token works after a reload.
    expect((await api.userById(user.id)).username).toBe(newName);
    await page.reload();
    await expect(page.locator('#username')).toHaveValue(newName);
  });

  test('[ACC-2]a new email asks for the current password: a wrong one says so and changes nothing; the right one saves and ends the other sessions', async ({
    page,
    api,
    makeUser,
  }) => {
    const user = await makeUser();
    const otherSession = await api.login(user.email, user.password);
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    const password = page.locator('#currentPassword');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    // A username alone asks for nothing.
    await expect(password).toHaveCount(0);

    const newEmail = `${uniqueUsername('moved')}@example.com`;
    await page.locator('#email').fill(newEmail);
    await expect(password).toBeVisible();
    await expect(save).toBeDisabled();
    await password.fill('not-the-password');
    await expect(save).toBeEnabled();
    const isUpdate = (response: { request(): { method(): string }; url(): string }) =>
      response.request().method() === 'PUT' && response.url().endsWith('/api/user/update');
    const refused = page.waitForResponse(isUpdate);
    await save.click();
    expect((await refused).status()).toBe(403);
    // Under the field and in the client's error toast; the form waits for another password.
    await expect(
      content(page).locator('.invalid-feedback', { hasText: validationMessages.currentPasswordWrong }),
    ).toBeVisible();
    await expect(errorToast(page, validationMessages.currentPasswordWrong)).toBeVisible();
    await expect(save).toBeDisabled();
    expect(await storedToken(page)).toBe(user.token);
    expect((await api.userById(user.id)).email).toBe(user.email);
    expect((await api.get('/user/me', otherSession)).status()).toBe(200);

    await password.fill(user.password);
    await expect(save).toBeEnabled();
    const saved = page.waitForResponse(isUpdate);
    await save.click();
    const response = await saved;
    expect(response.status()).toBe(200);
    const returned = ((await response.json()) as { token: string }).token;
    await expect(successToast(page, messages.accountSaved)).toBeVisible();
    await expect.poll(() => storedToken(page)).toBe(returned);
    // Saved: the field goes away, the email is the new one, and the password is not kept in the form.
    await expect(password).toHaveCount(0);
    expect((await api.userById(user.id)).email).toBe(newEmail);

    // Every other session has ended; this browser goes on with the answered token, also after a reload.
    expect((await api.get('/user/me', otherSession)).status()).toBe(401);
    expect((await api.get('/user/me', user.token)).status()).toBe(401);
    await page.reload();
    await expect(page.locator('#email')).toHaveValue(newEmail);
    await expect(navLink(page, 'Logout')).toBeVisible();
    expect((await api.loginResponse(newEmail, user.password)).status()).toBe(200);
  });

  test('[ACC-3] Suspend asks first: Cancel keeps the account active and logged in', async ({
    page,
    api,
    makeUser,
  }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    await page.getByRole('button', { name: 'Suspend My Account', exact: true }).click();
    const dialog = confirmSuspend(page);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    await expect(navLink(page, 'Logout')).toBeVisible();
    expect(await storedToken(page)).toBe(user.token);
    expect((await api.userById(user.id)).activated).toBe(true);
    expect((await api.loginResponse(user.email, user.password)).status()).toBe(200);
  });

  test('[ACC-3][ERR-3] Suspend toasts, logs out, and the account can no longer log in', async ({
    page,
    api,
    makeUser,
  }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    await page.getByRole('button', { name: 'Suspend My Account', exact: true }).click();
    await confirmSuspend(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.accountDisabled)).toBeVisible();
    await expect(navLink(page, 'Login')).toBeVisible();
    await expect(navLink(page, 'Logout')).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
    expect(await storedToken(page)).toBeNull();

    const login = await api.loginResponse(user.email, user.password);
    expect(login.status()).toBe(401);
    expect((await api.userById(user.id)).activated).toBe(false);
  });
});
