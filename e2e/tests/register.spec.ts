import {
  conflictMessages,
  errorCodes,
  messages,
  validationMessages,
  type ErrorEnvelope,
  type SignupBody,
} from '@reskin/contract';
import {
  test,
  expect,
  newSignupBody,
  cardTitle,
  errorToast,
  expectOneErrorToast,
  successToast,
  toast,
  createUser,
} from '../fixtures/test';
import { fillRegisterForm, registerButton } from '../fixtures/forms';
import { pauseClock } from '../fixtures/clock';

test.describe('register', () => {
  test('[REG-1] card Register with its fields, placeholders, phone mask and the data-protection links', async ({
    page,
  }) => {
    await page.goto('/register');
    await expect(cardTitle(page, 'Register')).toBeVisible();
    for (const field of ['username', 'firstName', 'lastName', 'email', 'password', 'phone']) {
      await expect(page.locator(`#${field}`), field).toBeVisible();
      await expect(page.locator(`#${field}`), field).toHaveAttribute('name', field);
    }
    await expect(page.locator('#firstName')).toHaveAttribute('placeholder', 'Name');
    await expect(page.locator('#lastName')).toHaveAttribute('placeholder', 'Surname');
    await expect(page.locator('#password')).toHaveAttribute('type', 'password');
    await expect(page.locator('#dataProtection')).toHaveAttribute('type', 'checkbox');
    await expect(page.locator('#dataProtection')).not.toBeChecked();
    for (const name of ['Terms of Use', 'User Agreement', 'Privacy Policy']) {
      await expect(page.getByRole('link', { name })).toBeVisible();
    }

    // The phone mask (000) 000-0000: digits fill the mask, anything else is dropped.
    const phone = page.locator('#phone');
    await phone.click();
    await phone.pressSequentially('55a5-12x34567');
    await expect(phone).toHaveValue('(555) 123-4567');
    await phone.pressSequentially('89');
    await expect(phone).toHaveValue('(555) 123-4567');
  });

  test('[REG-2] Register stays disabled until the whole form is valid', async ({ page }) => {
    const body = newSignupBody();
    await page.goto('/register');
    const button = registerButton(page);
    await expect(button).toBeDisabled();
    await fillRegisterForm(page, body);
    await expect(button).toBeEnabled();

    // Each single invalid field disables it again.
    await page.locator('#dataProtection').uncheck();
    await expect(button).toBeDisabled();
    await page.locator('#dataProtection').check();
    await expect(button).toBeEnabled();

    await page.locator('#password').fill('short');
    await expect(button).toBeDisabled();
    await page.locator('#password').fill(body.password);
    await expect(button).toBeEnabled();

    await page.locator('#email').fill('not-an-email');
    await expect(button).toBeDisabled();
    await page.locator('#email').fill(body.email);
    await expect(button).toBeEnabled();

    await page.locator('#username').fill('ab');
    await expect(button).toBeDisabled();
    await page.locator('#username').fill(body.username);
    await expect(button).toBeEnabled();

    await page.locator('#phone').fill('');
    await page.locator('#phone').pressSequentially('555123');
    await expect(button).toBeDisabled();
  });

  test('[REG-3][ERR-3] success toasts, goes to /login, and sends dataProtectionRegulationVersion 1 without the checkbox', async ({
    page,
    api,
    cleanupUser,
  }) => {
    const body = newSignupBody();
    await page.goto('/register');
    await fillRegisterForm(page, body);
    const requestPromise = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/user/signup',
    );
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/signup'));
    await registerButton(page).click();
    const request = await requestPromise;
    const response = await responsePromise;
    if (response.ok()) cleanupUser(((await response.json()) as { id: number }).id);

    const sent = request.postDataJSON() as Record<string, unknown>;
    expect(sent.dataProtectionRegulationVersion).toBe(1);
    expect(sent).not.toHaveProperty('dataProtection');
    expect(sent).toMatchObject({
      username: body.username,
      email: body.email,
      password: body.password,
      firstName: body.firstName,
      lastName: body.lastName,
      phone: body.phone,
    });

    await expect(successToast(page, messages.registered)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(response.status()).toBe(201);
    // The account really exists: it can log in.
    await api.login(body.email, body.password);
  });

  test('[REG-4][ERR-1][ERR-3] an email that exists: one toast titled in words, the danger text and the detail under it', async ({
    page,
    api,
    cleanupUser,
  }) => {
    const existing = await createUser(api);
    cleanupUser(existing.id);
    const body: SignupBody = newSignupBody({ email: existing.email });
    await page.clock.install();
    await page.goto('/register');
    // The page's clock stands still from here, so the toast cannot close by time before it is read.
    await pauseClock(page);
    await fillRegisterForm(page, body);
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/signup'));
    await registerButton(page).click();
    const response = await responsePromise;
    expect(response.status()).toBe(409);
    const envelope = (await response.json()) as ErrorEnvelope;
    expect(envelope.error.code).toBe(errorCodes.emailExists);
    const detail = envelope.error.details?.[0];
    expect(detail?.message, 'the 409 carries a detail').toBe(conflictMessages.email);

    // REG-4's danger text for any failure, ERR-1's first detail under it; the code stays in the envelope.
    await expectOneErrorToast(page, {
      title: 'Already in use',
      text: messages.registerFailed,
      reason: conflictMessages.email,
    });
    await expect(toast(page, messages.registered)).toHaveCount(0);
    await expect(page).toHaveURL(/\/register$/);
  });

  test('[REG-4] a common password: the server refuses it and the form says why under Password, without the email toast', async ({
    page,
    api,
  }) => {
    const body = newSignupBody({ password: 'Password1' });
    await page.goto('/register');
    await fillRegisterForm(page, body);
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/signup'));
    await registerButton(page).click();
    expect((await responsePromise).status()).toBe(422);
    const password = page.locator('#password');
    await expect(password).toHaveClass(/\bis-invalid\b/);
    await expect(
      page.getByRole('main').getByText(validationMessages.commonPassword, { exact: true }),
    ).toBeVisible();
    await expect(errorToast(page, validationMessages.commonPassword)).toBeVisible();
    await expect(errorToast(page, messages.registerFailed)).toHaveCount(0);
    await expect(errorToast(page, errorCodes.validationFailed)).toHaveCount(0);
    await expect(page).toHaveURL(/\/register$/);
    expect((await api.loginResponse(body.email, body.password)).status()).toBe(401);

    // Another password clears the message and registers.
    await password.fill('a-less-common-one-23');
    await expect(password).not.toHaveClass(/\bis-invalid\b/);
    await expect(registerButton(page)).toBeEnabled();
  });

  test('[REG-4][ERR-3] a taken username: one toast, titled Already in use, with email already exists and why', async ({
    page,
    api,
    cleanupUser,
  }) => {
    const existing = await createUser(api);
    cleanupUser(existing.id);
    await page.clock.install();
    await page.goto('/register');
    await pauseClock(page);
    // A taken username only (the email is free).
    await fillRegisterForm(
      page,
      newSignupBody({ username: existing.username, email: `free-${existing.email}` }),
    );
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/signup'));
    await registerButton(page).click();
    const { error } = (await (await responsePromise).json()) as ErrorEnvelope;
    expect(error.code).toBe(errorCodes.usernameExists);
    await expectOneErrorToast(page, {
      title: 'Already in use',
      text: messages.registerFailed,
      reason: conflictMessages.username,
    });
    // No code or class name on the page.
    await expect(page.locator('.Toastify__toast')).not.toContainText(errorCodes.usernameExists);
    await expect(page.locator('.Toastify__toast')).not.toContainText(error.name);
    await expect(page).toHaveURL(/\/register$/);
  });
});
