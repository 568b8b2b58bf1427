import { RoleType } from '@reskin/contract';
import { test, expect, openWithToken, navLink, nav, type TestUser } from '../fixtures/test';
import type { Page } from '@playwright/test';

const adminOnly = ['User Games', 'Games', 'Admin'];

async function expectLinks(page: Page, shown: string[], hidden: string[]): Promise<void> {
  for (const name of shown) await expect(navLink(page, name), `${name} shown`).toBeVisible();
  for (const name of hidden) await expect(navLink(page, name), `${name} hidden`).toHaveCount(0);
}

function accountLink(page: Page) {
  return nav(page).locator('a[href="/account"]');
}

test.describe('navigation bar', () => {
  test('[NAV-1] every link has its target, and Home matches only the root exactly', async ({
    page,
    makeUser,
  }) => {
    await page.goto('/');
    await expect(navLink(page, 'Home')).toHaveAttribute('href', '/');
    await expect(navLink(page, 'Login')).toHaveAttribute('href', '/login');
    await expect(navLink(page, 'Register')).toHaveAttribute('href', '/register');

    const admin: TestUser = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token);
    await expect(navLink(page, 'My Games')).toHaveAttribute('href', '/my-games');
    await expect(accountLink(page)).toHaveCount(1);
    await expect(navLink(page, 'User Games')).toHaveAttribute('href', '/user-game-list');
    await expect(navLink(page, 'Games')).toHaveAttribute('href', '/games');
    await expect(navLink(page, 'Admin')).toHaveAttribute('href', '/admin');
    await expect(navLink(page, 'Logout')).toHaveAttribute('href', '/logout');

    // Home is active on the root route only (exact match), not on every route below it.
    await expect(navLink(page, 'Home')).toHaveClass(/\bactive\b/);
    await navLink(page, 'Admin').click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(navLink(page, 'Admin')).toHaveClass(/\bactive\b/);
    await expect(navLink(page, 'Home')).not.toHaveClass(/\bactive\b/);

    // The links really go where they point.
    // Each screen has its own title in the browser tab; Home the product's name alone.
    for (const [name, url, title] of [
      ['Games', /\/games$/, 'Games · Reskin Studio'],
      ['User Games', /\/user-game-list$/, 'User Games · Reskin Studio'],
      ['My Games', /\/my-games$/, 'My Games · Reskin Studio'],
      ['Home', /\/$/, 'Reskin Studio'],
    ] as const) {
      await navLink(page, name).click();
      await expect(page, `after clicking ${name}`).toHaveURL(url);
      await expect(page, `after clicking ${name}`).toHaveTitle(title);
    }
    await accountLink(page).click();
    await expect(page).toHaveURL(/\/account$/);
  });

  test('[NAV-2] Login and Register show only when logged out; Logout and My Games only when logged in', async ({
    page,
    makeUser,
  }) => {
    await page.goto('/');
    await expectLinks(page, ['Home', 'Login', 'Register'], ['Logout', 'My Games']);
    const user = await makeUser();
    await openWithToken(page, user.token);
    await expectLinks(page, ['Home', 'Logout', 'My Games'], ['Login', 'Register']);
    await navLink(page, 'Logout').click();
    await expect(page).toHaveURL(/\/$/);
    await expectLinks(page, ['Home', 'Login', 'Register'], ['Logout', 'My Games']);
  });

  test('[NAV-3] Account shows the username when logged in, and hides for the demo role and when logged out', async ({
    page,
    makeUser,
  }) => {
    await page.goto('/');
    await expect(navLink(page, 'Login')).toBeVisible();
    await expect(accountLink(page)).toHaveCount(0);

    const user = await makeUser();
    await openWithToken(page, user.token);
    await expect(accountLink(page)).toBeVisible();
    await expect(accountLink(page)).toContainText(user.username);

    const demo = await makeUser(RoleType.Demo);
    await openWithToken(page, demo.token);
    await expect(navLink(page, 'Logout')).toBeVisible();
    await expect(navLink(page, 'My Games')).toBeVisible();
    await expect(accountLink(page)).toHaveCount(0);
    await expect(nav(page)).not.toContainText(demo.username);
  });

  test('[NAV-4] User Games, Games and Admin show only for a logged-in administrator', async ({
    page,
    makeUser,
  }) => {
    await page.goto('/');
    await expect(navLink(page, 'Login')).toBeVisible();
    await expectLinks(page, [], adminOnly);

    const user = await makeUser();
    await openWithToken(page, user.token);
    await expect(navLink(page, 'Logout')).toBeVisible();
    await expectLinks(page, [], adminOnly);

    const demo = await makeUser(RoleType.Demo);
    await openWithToken(page, demo.token);
    await expect(navLink(page, 'Logout')).toBeVisible();
    await expectLinks(page, [], adminOnly);

    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token);
    await expectLinks(page, adminOnly, []);
  });

  test('a first load of a screen shows its title and no router warning (No HydrateFallback element)', async ({
    page,
  }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    // Each a first load of a lazily loaded screen: the case the router warned about.
    for (const [path, title] of [
      ['/login', 'Login · Reskin Studio'],
      ['/register', 'Register · Reskin Studio'],
      ['/terms-of-use', 'Terms of Use · Reskin Studio'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
      await expect(page, path).toHaveTitle(title);
    }
    expect(warnings.filter((text) => /HydrateFallback/.test(text))).toEqual([]);
  });
});
