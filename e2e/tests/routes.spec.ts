import { RoleType, landing } from '@reskin/contract';
import { test, expect, openWithToken, navLink, storedToken } from '../fixtures/test';

const loggedInRoutes = [
  '/account',
  '/my-games',
  '/my-games/versions',
  '/my-games/versions/add',
  '/my-games/versions/workbench',
  '/my-games/versions/play',
  '/my-games/demo',
];

const adminRoutes = [
  '/games',
  '/games/game-play',
  '/games/game-files',
  '/user-game-list',
  '/user-game-list/game-versions',
  '/user-game-list/game-versions/files',
  '/user-game-list/game-versions/play',
  '/to-review',
  '/admin',
];

test.describe('routes and guards', () => {
  test('[RT-1] home is open and shows the landing screen', async ({ page, api }) => {
    const product = await api.productName();
    await page.goto('/');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: landing.heading(product) })).toBeVisible();
    await expect(page.getByText(landing.subheading)).toBeVisible();
  });

  test('[RT-2] register and login are open to visitors', async ({ page }) => {
    await page.goto('/register');
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.locator('#username')).toBeVisible();
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator('#email')).toBeVisible();
  });

  test('[RT-2][SES-3] visiting logout logs out at once and goes to the root route', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(navLink(page, 'Logout')).toBeVisible();
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/$/);
    await expect(navLink(page, 'Login')).toBeVisible();
    await expect(navLink(page, 'Logout')).toHaveCount(0);
    expect(await storedToken(page)).toBeNull();
    // Logged out for good: a guarded route now sends the visitor to login.
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('[RT-2] logout is open: a visitor who is not logged in lands on the root route', async ({ page }) => {
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/$/);
    await expect(navLink(page, 'Login')).toBeVisible();
  });

  test('[RT-3] account and every my-games route send anonymous visitors to login', async ({ page }) => {
    for (const path of loggedInRoutes) {
      await page.goto(path);
      await expect(page, `anonymous on ${path}`).toHaveURL(/\/login$/);
    }
  });

  test('[RT-3] account and my-games admit a logged-in user', async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token, '/account');
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.locator('#username')).toHaveValue(user.username);
    for (const path of ['/my-games', '/my-games/demo']) {
      await page.goto(path);
      await expect(navLink(page, 'Logout')).toBeVisible();
      await expect(page, `user on ${path}`).toHaveURL(new RegExp(`${path}(\\?.*)?$`));
    }
  });

  test('[RT-4] admin routes send anonymous visitors to login', async ({ page }) => {
    for (const path of adminRoutes) {
      await page.goto(path);
      await expect(page, `anonymous on ${path}`).toHaveURL(/\/login$/);
    }
  });

  test('[RT-4] admin routes send a logged-in non-admin to the root route', async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token);
    await expect(navLink(page, 'Logout')).toBeVisible();
    for (const path of adminRoutes) {
      await page.goto(path);
      await expect(page, `user on ${path}`).toHaveURL(/\/$/);
      await expect(navLink(page, 'Logout')).toBeVisible();
    }
  });

  test('[RT-4] admin routes admit an administrator', async ({ page, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token);
    await expect(navLink(page, 'Admin')).toBeVisible();
    for (const path of adminRoutes) {
      await page.goto(path);
      await expect(navLink(page, 'Admin')).toBeVisible();
      await expect(page, `admin on ${path}`).toHaveURL(new RegExp(`${path}(\\?.*)?$`));
    }
    await page.goto('/admin');
    await expect(page.getByRole('columnheader', { name: 'Username' })).toBeVisible();
  });

  test('[RT-5] any other path goes to home', async ({ page, api }) => {
    const product = await api.productName();
    for (const path of ['/no-such-page', '/admin/nope/deeper', '/my-games-x']) {
      await page.goto(path);
      await expect(page, `on ${path}`).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: landing.heading(product) })).toBeVisible();
    }
  });

  test('[RT-6] after a successful login the user goes to the root route', async ({ page, makeUser }) => {
    const user = await makeUser();
    await page.goto('/login');
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(navLink(page, 'Logout')).toBeVisible();
  });

  test('[RT-6] logging in from a guarded route still lands on the root route', async ({ page, makeUser }) => {
    const user = await makeUser();
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login$/);
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(navLink(page, 'Logout')).toBeVisible();
  });
});
