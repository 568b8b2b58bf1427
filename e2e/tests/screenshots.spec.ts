import { RoleType } from '@reskin/contract';
import { readmeScreenshot } from '../fixtures/screenshots';
import { test, expect, cardTitle, openWithToken } from '../fixtures/test';

test.describe('screenshots for the README', () => {
  test('[ADM-1] the admin users screen, as the README shows it', async ({ page, makeUser }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token, '/admin');
    await expect(cardTitle(page, /^\s*Registered users \(\d+\)\s*$/)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'admin@example.com' })).toBeVisible();
    await readmeScreenshot(page, test.info(), 'admin-users.png');
  });
});
