import {
  RoleType,
  emptyTexts,
  messages,
  toastSettings,
  totalCountHeader,
  validationMessages,
  type User,
} from '@reskin/contract';
import {
  test,
  expect,
  cardTitle,
  dialog,
  newSignupBody,
  openWithToken,
  successToast,
  type TestUser,
} from '../fixtures/test';
import { fillRegisterForm } from '../fixtures/forms';
import type { Locator, Page } from '@playwright/test';

function userRow(page: Page, user: { username: string }): Locator {
  return page.getByRole('row').filter({ hasText: user.username });
}

function rowButton(row: Locator, name: string): Locator {
  return row.getByRole('button', { name, exact: true });
}

/** Searches the users list (username or email); the list follows once the typing pauses. */
async function searchUsers(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search by username or email' }).fill(text);
}

/**
 * Opens the admin screen as `admin`, searched for `target` through the URL as a pasted link would (parallel
 * tests add users, so a new one is rarely on the first page), and waits until its row is listed.
 */
async function openAdmin(page: Page, admin: TestUser, target: { username: string }): Promise<Locator> {
  await openWithToken(page, admin.token, `/admin?q=${encodeURIComponent(target.username)}`);
  const row = userRow(page, target);
  await expect(row).toBeVisible();
  return row;
}

test.describe('admin users', () => {
  test('[ADM-1] card Registered users (N) with its columns, N the true total of a page of at most 25', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const other = await makeUser();
    await openWithToken(page, admin.token, '/admin');
    const title = cardTitle(page, /^\s*Registered users \(\d+\)\s*$/);
    await expect(title).toBeVisible();
    for (const column of ['Username', 'Email', 'Role', 'Active', 'Mail Verified', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true }), column).toBeVisible();
    }
    const count = Number((await title.innerText()).match(/\((\d+)\)/)?.[1]);
    // The seeded admin, user and demo plus this test's two users at least.
    expect(count).toBeGreaterThanOrEqual(5);
    await expect(page.locator('tbody tr')).toHaveCount(Math.min(count, 25));
    await expect(page.getByText(`${count} items`, { exact: true })).toBeVisible();
    // Oldest first: the seeded accounts open the first page.
    for (const seededEmail of ['admin@example.com', 'user@example.com', 'demo@example.com']) {
      await expect(page.getByRole('row').filter({ hasText: seededEmail })).toHaveCount(1);
    }
    await searchUsers(page, other.email);
    await expect(cardTitle(page, 'Registered users (1)')).toBeVisible();
    await expect(userRow(page, other)).toContainText(other.email);
  });

  test('[ADM-1] while the list loads or a search runs, the title shows no false 0: the last total, or none yet', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    // Each answer of the list is held until the test has read the title while it runs.
    let gate = Promise.resolve();
    let open = () => {};
    const hold = () => (gate = new Promise<void>((resolve) => (open = resolve)));
    await page.route('**/api/user/list', async (route) => {
      await gate;
      await route.continue();
    });
    const listRequest = () => page.waitForRequest((r) => r.url().endsWith('/api/user/list'));
    const falseZero = page.locator('.card-header', { hasText: 'Registered users (0)' });

    // A pasted link with a search: no total yet, so none is shown.
    hold();
    let asked = listRequest();
    await openWithToken(page, admin.token, `/admin?q=${encodeURIComponent(admin.username)}`);
    await asked;
    await expect(cardTitle(page, 'Registered users')).toBeVisible();
    await expect(falseZero).toHaveCount(0);
    open();
    await expect(cardTitle(page, 'Registered users (1)')).toBeVisible();

    // A new search keeps the last total until its own answer comes.
    hold();
    asked = listRequest();
    await searchUsers(page, '');
    await asked;
    await expect(cardTitle(page, 'Registered users (1)')).toBeVisible();
    await expect(falseZero).toHaveCount(0);
    open();
    // Every user: the seeded three and this test's admin at least.
    await expect(cardTitle(page, /^\s*Registered users \(([2-9]|1\d)\d*\)\s*$/)).toBeVisible();
  });

  test('[ADM-2] empty state: There are no registered users.', async ({ page, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    // The empty list cannot happen for real: the admin viewing the page is always a registered user and is
    // listed. So this one test answers POST /api/user/list with [] to show the empty state; nothing else is
    // intercepted here or in any other test.
    await page.route('**/api/user/list', async (route) => {
      if (route.request().method() === 'POST')
        await route.fulfill({ json: [], headers: { [totalCountHeader]: '0' } });
      else await route.continue();
    });
    await openWithToken(page, admin.token, '/admin');
    await expect(page.getByText(emptyTexts.users, { exact: true })).toBeVisible();
    await expect(cardTitle(page, 'Registered users (0)')).toBeVisible();
  });

  test('[ADM-3][ERR-4][ERR-3] Delete asks, deletes, toasts, and reloads the list', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const target = await makeUser();
    const row = await openAdmin(page, admin, target);
    await rowButton(row, 'Delete').click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteUser(target.username));
    const list = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/user/list'));
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.userDeleted)).toBeVisible();
    await list;
    await expect(userRow(page, target)).toHaveCount(0);
    // The search now matches no one: not the spec's empty state, which is for a list without any user.
    await expect(page.getByText(`No results for "${target.username}".`, { exact: true })).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    expect((await api.userDetail(target.id)).status()).toBe(404);
  });

  test('[ERR-4] Cancel in the delete confirmation keeps the user', async ({ page, api, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    const target = await makeUser();
    const row = await openAdmin(page, admin, target);
    const deletes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE') deletes.push(r.url());
    });
    await rowButton(row, 'Delete').click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page)).toContainText(messages.confirmDeleteUser(target.username));
    await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(userRow(page, target)).toBeVisible();
    expect(deletes).toEqual([]);
    expect((await api.userDetail(target.id)).status()).toBe(200);
    // Still there after a reload too.
    await page.reload();
    await expect(userRow(page, target)).toBeVisible();
  });

  test('[ADM-4][ERR-3] Password asks, resets, toasts the new password, shows it in a dialog that stays until closed with Copy, and it works', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const target = await makeUser();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.clock.install();
    const row = await openAdmin(page, admin, target);
    await rowButton(row, 'Password').click();
    await expect(dialog(page)).toContainText(messages.confirmResetPassword(target.username));
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();

    const shown = page.getByRole('dialog', { name: `New password of ${target.username}` });
    await expect(shown).toBeVisible();
    const newPassword = await shown.getByLabel('New password').inputValue();
    expect(newPassword.length).toBeGreaterThanOrEqual(8);
    const resetToast = successToast(page, messages.passwordReset(newPassword));
    await expect(resetToast).toHaveText(messages.passwordReset(newPassword));

    // Long after the toast has closed, the dialog is still there.
    await page.clock.runFor(toastSettings.displayMs + toastSettings.animationMs + 1000);
    await expect(resetToast).toHaveCount(0);
    await expect(shown).toBeVisible();
    await shown.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(shown.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newPassword);
    await shown.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(shown).toHaveCount(0);

    await api.login(target.email, newPassword);
    expect((await api.loginResponse(target.email, target.password)).status()).toBe(401);
  });

  test('[ADM-5][ERR-3] the role toggle converts to Demo and back, for real', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const target = await makeUser();
    const row = await openAdmin(page, admin, target);

    await rowButton(row, 'Convert to Demo').click();
    await expect(dialog(page)).toContainText(messages.confirmUpdateRole(target.username));
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.roleUpdated)).toBeVisible();
    await expect(rowButton(row, 'Convert to Normal User')).toBeVisible();
    await expect(rowButton(row, 'Convert to Demo')).toHaveCount(0);
    expect((await api.userById(target.id)).roleTypeId).toBe(RoleType.Demo);

    await rowButton(row, 'Convert to Normal User').click();
    await expect(dialog(page)).toContainText(messages.confirmUpdateRole(target.username));
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(rowButton(row, 'Convert to Demo')).toBeVisible();
    expect((await api.userById(target.id)).roleTypeId).toBe(RoleType.User);
  });

  test("[ADM-6] Delete, Password and the role toggle are disabled on the admin's own row, and the server refuses", async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const other = await makeUser();
    const own = await openAdmin(page, admin, admin);
    for (const name of ['Delete', 'Password', 'Convert to Demo']) {
      await expect(rowButton(own, name), `own ${name}`).toBeDisabled();
    }
    await searchUsers(page, other.username);
    const otherRow = userRow(page, other);
    for (const name of ['Delete', 'Password', 'Convert to Demo']) {
      await expect(rowButton(otherRow, name), `other ${name}`).toBeEnabled();
    }

    const refusals = [
      await api.delete(`/user/delete/${admin.id}`, admin.token),
      await api.put(`/user/role/${admin.id}/${RoleType.Demo}`, {}, admin.token),
      await api.put('/user/update/password', { userId: admin.id }, admin.token),
    ];
    for (const response of refusals) expect(response.status(), response.url()).toBe(403);
    const after: User = await api.userById(admin.id);
    expect(after).toMatchObject({ roleTypeId: RoleType.Admin, activated: true });
    await api.login(admin.email, admin.password);
  });

  test('[ADM-7][ERR-3] the Update button calls GET /admin/update and toasts exactly Services updated', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openAdmin(page, admin, admin);
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/admin/update');
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/update');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    expect((await request).method()).toBe('GET');
    expect((await response).status()).toBe(200);
    // Exactly the spec's words, nothing appended.
    await expect(successToast(page, messages.servicesUpdated)).toHaveText(messages.servicesUpdated, {
      timeout: 30_000,
    });
  });

  test('[ADM-8] an administrator adds a user through POST /user/create (not the public signup and its rate limit)', async ({
    page,
    api,
    makeUser,
    cleanupUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openAdmin(page, admin, admin);
    const body = newSignupBody();
    await page
      .getByRole('button', { name: /^Add( User)?$/ })
      .first()
      .click();
    await fillRegisterForm(page, body);
    const request = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/user/create'));
    const response = page.waitForResponse((r) => r.url().endsWith('/api/user/create'));
    await page
      .getByRole('button', { name: /^(Add|Add User|Save|Create|Register)$/ })
      .last()
      .click();
    expect((await request).postDataJSON()).toMatchObject({ username: body.username, email: body.email });
    const answer = await response;
    expect(answer.status()).toBe(201);
    const created = (await answer.json()) as User;
    cleanupUser(created.id);
    // A success toast names the new user, and the dialog closes.
    await expect(successToast(page, messages.userAdded(body.username))).toHaveText(
      messages.userAdded(body.username),
    );
    await expect(dialog(page)).toHaveCount(0);
    await searchUsers(page, body.username);
    await expect(userRow(page, body)).toBeVisible();
    await api.login(body.email, body.password);
  });

  test('[ADM-8] Add User refuses a common password: the message shows under Password and the dialog stays open', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openAdmin(page, admin, admin);
    const body = newSignupBody({ password: '12345678' });
    await page
      .getByRole('button', { name: /^Add( User)?$/ })
      .first()
      .click();
    await fillRegisterForm(page, body);
    const response = page.waitForResponse((r) => r.url().endsWith('/api/user/create'));
    await page
      .getByRole('button', { name: /^(Add|Add User|Save|Create|Register)$/ })
      .last()
      .click();
    expect((await response).status()).toBe(422);
    await expect(dialog(page).locator('#password')).toHaveClass(/\bis-invalid\b/);
    await expect(dialog(page).getByText(validationMessages.commonPassword, { exact: true })).toBeVisible();
    expect((await api.loginResponse(body.email, body.password)).status()).toBe(401);
  });

  test('[ACC-3] a suspended account cannot log in until an administrator activates it again; then it can', async ({
    page,
    api,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const artist = await makeUser();
    await openWithToken(page, artist.token, '/account');
    await page.getByRole('button', { name: 'Suspend My Account', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.accountDisabled)).toBeVisible();
    expect((await api.loginResponse(artist.email, artist.password)).status()).toBe(401);

    const row = await openAdmin(page, admin, artist);
    const active = row.getByRole('cell').nth(3);
    await expect(active).toHaveText('No');
    await rowButton(row, 'Activate').click();
    await expect(dialog(page)).toContainText(messages.confirmActivateUser(artist.username));
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.userActivated)).toBeVisible();
    await expect(active).toHaveText('Yes');
    await expect(rowButton(row, 'Activate')).toHaveCount(0);
    await api.login(artist.email, artist.password);
  });
});
