import { fileURLToPath } from 'node:url';
import { RoleType } from '@reskin/contract';
import { test, expect, cardTitle, openWithToken } from '../fixtures/test';

/** Where the README's screenshots live; every run of the suite refreshes them. */
const screenshots = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

test.describe('screenshots for the README', () => {
  test('[ADM-1] the admin users screen, as the README shows it', async ({ page, makeUser }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token, '/admin');
    await expect(cardTitle(page, /^\s*Registered users \(\d+\)\s*$/)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'admin@example.com' })).toBeVisible();
    await page.screenshot({ path: `${screenshots}admin-users.png` });
  });
});
