import { validationMessages as m } from '@reskin/contract';
import { test, expect } from '../fixtures/test';
import type { Page } from '@playwright/test';

const fields = ['username', 'firstName', 'lastName', 'email', 'password', 'phone', 'dataProtection'];

/** Types a value into a field (replacing what is there) and leaves it. */
async function enter(page: Page, field: string, value: string): Promise<void> {
  const input = page.locator(`#${field}`);
  await input.fill(value);
  await input.blur();
}

async function expectInvalid(page: Page, field: string, message: string): Promise<void> {
  await expect(page.locator(`#${field}`)).toHaveClass(/\bis-invalid\b/);
  await expect(page.getByText(message, { exact: true }).first()).toBeVisible();
}

async function expectValid(page: Page, field: string, message: string): Promise<void> {
  await expect(page.locator(`#${field}`)).not.toHaveClass(/\bis-invalid\b/);
  await expect(page.getByText(message, { exact: true })).toHaveCount(0);
}

test.describe('register form validation', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/register');
    await expect(page.locator('#username')).toBeVisible();
  });

  test('[VAL-1] username: required, 3-30 characters, letters digits underscore hyphen whitespace', async ({
    page,
  }) => {
    await enter(page, 'username', 'ab');
    await expectInvalid(page, 'username', m.usernameLength);
    await enter(page, 'username', 'a'.repeat(31));
    await expectInvalid(page, 'username', m.usernameLength);
    await enter(page, 'username', 'bad.name!');
    await expectInvalid(page, 'username', m.usernamePattern);
    await enter(page, 'username', '');
    await expect(page.locator('#username')).toHaveClass(/\bis-invalid\b/);
    await enter(page, 'username', 'Good_name-1 x');
    await expectValid(page, 'username', m.usernameLength);
    await expectValid(page, 'username', m.usernamePattern);
    await enter(page, 'username', 'a'.repeat(30));
    await expectValid(page, 'username', m.usernameLength);
  });

  test('[VAL-2] firstName and lastName: required, at least 3 characters', async ({ page }) => {
    await enter(page, 'firstName', 'Al');
    await expectInvalid(page, 'firstName', m.firstName);
    await enter(page, 'lastName', 'Li');
    await expectInvalid(page, 'lastName', m.lastName);
    await enter(page, 'firstName', '');
    await expectInvalid(page, 'firstName', m.firstName);
    await enter(page, 'lastName', '');
    await expectInvalid(page, 'lastName', m.lastName);
    await enter(page, 'firstName', 'Ada');
    await expectValid(page, 'firstName', m.firstName);
    await enter(page, 'lastName', 'Lovelace');
    await expectValid(page, 'lastName', m.lastName);
  });

  test('[VAL-3] email: required, valid format, 3-100 characters', async ({ page }) => {
    for (const bad of ['plainaddress', 'a@b', 'two words@example.com', `${'a'.repeat(95)}@example.com`, '']) {
      await enter(page, 'email', bad);
      await expectInvalid(page, 'email', m.email);
    }
    await enter(page, 'email', 'someone@example.com');
    await expectValid(page, 'email', m.email);
  });

  test('[VAL-3] login email: required, 3-100 characters', async ({ page }) => {
    await page.goto('/login');
    const button = page.getByRole('button', { name: 'Login', exact: true });
    await page.locator('#password').fill('12345678');
    await enter(page, 'email', 'ab');
    await expect(page.locator('#email')).toHaveClass(/\bis-invalid\b/);
    await expect(button).toBeDisabled();
    await enter(page, 'email', `${'a'.repeat(89)}@example.com`);
    await expect(page.locator('#email')).toHaveClass(/\bis-invalid\b/);
    await expect(button).toBeDisabled();
    await enter(page, 'email', 'abc');
    await expect(page.locator('#email')).not.toHaveClass(/\bis-invalid\b/);
    await expect(button).toBeEnabled();
  });

  test('[VAL-4] password: at least 8 characters', async ({ page }) => {
    await enter(page, 'password', '1234567');
    await expectInvalid(page, 'password', m.password);
    await enter(page, 'password', '');
    await expectInvalid(page, 'password', m.password);
    // 8 characters meet the form's rule (a common one like 12345678 is refused by the server).
    await enter(page, 'password', 'kq7-vb2x');
    await expectValid(page, 'password', m.password);
  });

  test('[VAL-5] phone: digits only through the mask (000) 000-0000', async ({ page }) => {
    const phone = page.locator('#phone');
    await phone.click();
    await phone.pressSequentially('555123');
    await phone.blur();
    await expectInvalid(page, 'phone', m.phone);
    await phone.click();
    await phone.press('End');
    await phone.pressSequentially('abc');
    await expect(phone).toHaveValue(/^\(555\) 123-?$/);
    await phone.pressSequentially('4567');
    await phone.blur();
    await expect(phone).toHaveValue('(555) 123-4567');
    await expectValid(page, 'phone', m.phone);
  });

  test('[VAL-5][REG-2] letters typed into the empty phone are refused, leave no "(" and say why Register is disabled', async ({
    page,
  }) => {
    const phone = page.locator('#phone');
    await phone.click();
    await phone.pressSequentially('abc');
    await expect(phone).toHaveValue('');
    await expectInvalid(page, 'phone', m.phone);
    await expect(page.getByRole('button', { name: 'Register', exact: true })).toBeDisabled();
    // A pasted formatted number still fills the mask.
    await phone.fill('(555) 123-4567');
    await expect(phone).toHaveValue('(555) 123-4567');
    await expectValid(page, 'phone', m.phone);
  });

  test('[VAL-6] the data-protection checkbox must be checked', async ({ page }) => {
    const box = page.locator('#dataProtection');
    await box.check();
    await box.uncheck();
    await box.blur();
    await expectInvalid(page, 'dataProtection', m.dataProtection);
    await box.check();
    await expectValid(page, 'dataProtection', m.dataProtection);
  });

  test('[VAL-7] invalid styling shows only once a field is no longer pristine', async ({ page }) => {
    // The empty form is invalid (Register disabled), yet nothing is styled invalid and no message shows.
    await expect(page.getByRole('button', { name: 'Register', exact: true })).toBeDisabled();
    for (const field of fields)
      await expect(page.locator(`#${field}`), field).not.toHaveClass(/\bis-invalid\b/);
    await expect(page.locator('.is-invalid')).toHaveCount(0);
    for (const message of [
      m.usernameLength,
      m.firstName,
      m.lastName,
      m.email,
      m.password,
      m.phone,
      m.dataProtection,
    ]) {
      await expect(page.getByText(message, { exact: true }), message).toHaveCount(0);
    }

    // Focusing and leaving a field without changing it keeps it pristine: still no invalid styling.
    await page.locator('#firstName').focus();
    await page.locator('#firstName').blur();
    await expect(page.locator('#firstName')).not.toHaveClass(/\bis-invalid\b/);
    await expect(page.getByText(m.firstName, { exact: true })).toHaveCount(0);

    // Changing one field marks only that one.
    await enter(page, 'username', 'x');
    await expect(page.locator('#username')).toHaveClass(/\bis-invalid\b/);
    for (const field of fields.filter((f) => f !== 'username')) {
      await expect(page.locator(`#${field}`), field).not.toHaveClass(/\bis-invalid\b/);
    }
    await expect(page.locator('.is-invalid')).toHaveCount(1);
  });
});
