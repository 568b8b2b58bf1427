import { RoleType, messages, storageKeys, xsrf } from '@reskin/contract';
import {
  test,
  expect,
  decodeTokenPayload,
  expectOneErrorToast,
  loginViaUi,
  nav,
  navLink,
  openWithToken,
  storedToken,
  unknownEmail,
} from '../fixtures/test';
import { pauseClock } from '../fixtures/clock';
import { expiredToken } from '../fixtures/tokens';

/** SES-4's one toast. */
const sessionEnded = { title: 'Session ended', text: messages.sessionEnded };

test.describe('session', () => {
  test('[SES-1] the token is kept under local storage key token and holds a user object and exp', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await loginViaUi(page, user.email, user.password);
    const token = await storedToken(page);
    expect(token, `localStorage['${storageKeys.token}']`).toBeTruthy();
    const payload = decodeTokenPayload(token ?? '');
    expect(payload.user).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      roleTypeId: 100,
    });
    expect(typeof payload.exp).toBe('number');
    const nowSeconds = Date.now() / 1000;
    expect(payload.exp as number).toBeGreaterThan(nowSeconds);
  });

  test('[SES-2] at start-up a saved token and a successful GET /user/me log the user in', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await loginViaUi(page, user.email, user.password);
    const me = page.waitForResponse(
      (response) => response.request().method() === 'GET' && response.url().endsWith('/api/user/me'),
    );
    await page.reload();
    expect((await me).status()).toBe(200);
    await expect(navLink(page, 'Logout')).toBeVisible();
    await expect(nav(page).locator('a[href="/account"]')).toContainText(user.username);

    // A fresh tab of the same browser starts logged in too.
    const second = await page.context().newPage();
    await second.goto('/account');
    await expect(second).toHaveURL(/\/account$/);
    await expect(second.locator('#username')).toHaveValue(user.username);
    await second.close();
  });

  test('[SES-2] a page load asks for the user once (the production build: no development double effects)', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await loginViaUi(page, user.email, user.password);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().endsWith('/api/user/me')) asked.push(request.url());
    });
    await page.goto('/');
    await expect(navLink(page, 'Logout')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked).toHaveLength(1);
  });

  test('[SES-2] a saved token the server refuses does not log anyone in', async ({ page }) => {
    await openWithToken(page, 'not.a.valid-token', '/');
    await expect(navLink(page, 'Login')).toBeVisible();
    await expect(navLink(page, 'Logout')).toHaveCount(0);
  });

  test('[SES-3] logout removes the token, clears the admin flag and the current user, and goes to root', async ({
    page,
    makeUser,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token, '/admin');
    await expect(navLink(page, 'Admin')).toBeVisible();
    await expect(nav(page).locator('a[href="/account"]')).toContainText(admin.username);
    await navLink(page, 'Logout').click();
    await expect(page).toHaveURL(/\/$/);
    expect(await storedToken(page)).toBeNull();
    for (const name of ['Admin', 'Games', 'User Games', 'My Games', 'Logout']) {
      await expect(navLink(page, name), name).toHaveCount(0);
    }
    await expect(nav(page).locator('a[href="/account"]')).toHaveCount(0);
    await expect(nav(page)).not.toContainText(admin.username);
    // Admin pages are closed again.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('[SES-4] an expired saved token at start-up goes to /login with one toast: Your session has ended', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    const expired = expiredToken(user.token);
    await page.clock.install();
    const me = page.waitForResponse((response) => response.url().endsWith('/api/user/me'));
    // A returning visitor opens the landing page with the token of a visit long ago.
    await openWithToken(page, expired, '/');
    expect((await me).status()).toBe(401);
    await expect(page).toHaveURL(/\/login$/);
    // The page's clock stands still from here, so the toast cannot close by time before it is read.
    await pauseClock(page);
    await expectOneErrorToast(page, sessionEnded);
    expect(await storedToken(page)).toBeNull();
    await expect(navLink(page, 'Login')).toBeVisible();
    await expect(navLink(page, 'Logout')).toHaveCount(0);
  });

  test('[SES-4] a session revoked mid-use (an admin resets the password) logs out and goes to /login with one toast', async ({
    page,
    api,
    makeUser,
  }) => {
    const user = await makeUser();
    await page.clock.install();
    await loginViaUi(page, user.email, user.password);
    await nav(page).locator('a[href="/account"]').click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.locator('#username')).toHaveValue(user.username);

    // An admin resets the user's password: the token the browser holds is revoked; the next call answers 401.
    const reset = await api.put('/user/update/password', { userId: user.id }, await api.asAdmin());
    expect(reset.status()).toBe(200);
    await pauseClock(page);
    const refused = page.waitForResponse(
      (response) => response.url().includes('/api/') && response.status() === 401,
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await refused;
    await expect(page).toHaveURL(/\/login$/);
    await expectOneErrorToast(page, sessionEnded);
    await expect(navLink(page, 'Login')).toBeVisible();
    await expect(navLink(page, 'Logout')).toHaveCount(0);
    expect(await storedToken(page)).toBeNull();
  });

  test('[SES-5] requests carry Authorization Bearer, Accept and Content-Type application/json', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    const meRequest = page.waitForRequest(
      (request) => request.method() === 'GET' && request.url().endsWith('/api/user/me'),
    );
    await openWithToken(page, user.token, '/account');
    const getHeaders = await (await meRequest).allHeaders();
    expect(getHeaders['authorization']).toBe(`Bearer ${user.token}`);
    expect(getHeaders['accept']).toBe('application/json');
    expect(getHeaders['content-type']).toContain('application/json');

    await expect(page.locator('#username')).toHaveValue(user.username);
    const putRequest = page.waitForRequest(
      (request) => request.method() === 'PUT' && request.url().endsWith('/api/user/update'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const putHeaders = await (await putRequest).allHeaders();
    expect(putHeaders['authorization']).toBe(`Bearer ${user.token}`);
    expect(putHeaders['accept']).toBe('application/json');
    expect(putHeaders['content-type']).toContain('application/json');
  });

  test('[SES-5] without a stored token no Authorization header is sent', async ({ page }) => {
    const loginRequest = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/user/login'),
    );
    await page.goto('/login');
    await page.locator('#email').fill(unknownEmail());
    await page.locator('#password').fill('whatever123');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const headers = await (await loginRequest).allHeaders();
    expect(headers['authorization']).toBeUndefined();
    expect(headers['accept']).toBe('application/json');
    expect(headers['content-type']).toContain('application/json');
  });

  test('[SES-6] non-GET requests carry X-XSRF-TOKEN equal to the XSRF-TOKEN cookie', async ({
    page,
    context,
    makeUser,
  }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page.locator('#username')).toHaveValue(user.username);
    const cookie = (await context.cookies()).find((c) => c.name === xsrf.cookie);
    expect(cookie, 'the server set the XSRF-TOKEN cookie').toBeTruthy();

    const putRequest = page.waitForRequest(
      (request) => request.method() === 'PUT' && request.url().endsWith('/api/user/update'),
    );
    const putResponse = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().endsWith('/api/user/update'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const headers = await (await putRequest).allHeaders();
    expect(headers[xsrf.header.toLowerCase()]).toBe(cookie?.value);
    // The server accepted it (a missing or wrong header would be a 403).
    expect((await putResponse).status()).toBe(200);
  });
});
