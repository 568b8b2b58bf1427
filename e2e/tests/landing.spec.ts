import { landing } from '@reskin/contract';
import { test, expect, openWithToken, nav } from '../fixtures/test';
import type { Locator, Page } from '@playwright/test';

/** A control in the page body (not the navigation bar) with this label: a button or a link styled as one. */
function bodyAction(page: Page, name: string): Locator {
  return page
    .locator('button, a')
    .filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) })
    .and(page.locator(':not(nav *)'));
}

test.describe('landing', () => {
  test('[LND-1] heading names the product and the subheading is the spec text', async ({ page, api }) => {
    const product = await api.productName();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: landing.heading(product), exact: true })).toBeVisible();
    await expect(page.getByText(landing.subheading, { exact: true })).toBeVisible();
  });

  test('[LND-2] logged out: a Login button opens login; no My Games button', async ({ page }) => {
    await page.goto('/');
    await expect(bodyAction(page, 'My Games')).toHaveCount(0);
    await bodyAction(page, 'Login').click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('[LND-2] logged in: a My Games button opens my-games; no Login button', async ({ page, makeUser }) => {
    const user = await makeUser();
    await openWithToken(page, user.token);
    await expect(nav(page).getByRole('link', { name: 'Logout' })).toBeVisible();
    await expect(bodyAction(page, 'Login')).toHaveCount(0);
    await bodyAction(page, 'My Games').click();
    await expect(page).toHaveURL(/\/my-games$/);
  });
});
