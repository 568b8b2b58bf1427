import { legalDocuments, legalDocumentSchema } from '@reskin/contract';
import { test, expect, cardTitle } from '../fixtures/test';

test.describe('legal documents', () => {
  test('[REG-1] each data-protection link on Register opens its page in a new tab with its title and text', async ({
    page,
    api,
  }) => {
    await page.goto('/register');
    // Halfway through the form: reading a document must not lose what was typed.
    await page.locator('#username').fill('halfway_there');

    for (const { document, title } of legalDocuments) {
      const response = await api.get(`/legal/${document}`);
      expect(response.status(), document).toBe(200);
      const expected = legalDocumentSchema.parse(await response.json());

      const link = page.getByRole('link', { name: title, exact: true });
      await expect(link).toHaveAttribute('href', `/${document}`);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /\bnoopener\b/);
      const opened = page.context().waitForEvent('page');
      await link.click();
      const tab = await opened;
      await expect(tab).toHaveURL(new RegExp(`/${document}$`));
      await expect(cardTitle(tab, expected.title)).toBeVisible();
      const firstParagraph = expected.text.split(/\n\s*\n/)[0]?.trim() ?? '';
      await expect(tab.getByRole('main').locator('p').first()).toHaveText(firstParagraph);
      await expect(tab.getByRole('main').locator('p')).toHaveCount(
        expected.text.split(/\n\s*\n/).filter((paragraph) => paragraph.trim() !== '').length,
      );
      await tab.close();
    }

    await expect(page).toHaveURL(/\/register$/);
    await expect(page.locator('#username')).toHaveValue('halfway_there');
    await expect(page.locator('#dataProtection')).not.toBeChecked();
  });
});
