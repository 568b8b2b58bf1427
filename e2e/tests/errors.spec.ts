import { messages, type ErrorEnvelope } from '@reskin/contract';
import { test, expect, errorToast, newSignupBody, successToast } from '../fixtures/test';
import { fillRegisterForm, registerButton } from '../fixtures/forms';
import type { Page } from '@playwright/test';

async function failLogin(page: Page, email: string): Promise<void> {
  await page.locator('#email').fill(email);
  await page.locator('#password').fill('wrong-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

test.describe('errors and toasts', () => {
  test('[ERR-2] toasts sit top-right without progress bar or close button, newest on top, and tap to dismiss', async ({
    page,
    makeUser,
  }) => {
    const existing = await makeUser();
    // First toast pair: a registration that fails.
    await page.goto('/register');
    await fillRegisterForm(page, newSignupBody({ email: existing.email }));
    await registerButton(page).click();
    const older = errorToast(page, messages.registerFailed);
    await expect(older).toBeVisible();

    const container = page.locator('.Toastify__toast-container');
    await expect(container).toHaveClass(/Toastify__toast-container--top-right/);
    const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
    const box = await older.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeGreaterThan(viewport.width * 0.75);
    expect(box?.y ?? 1000).toBeLessThan(viewport.height * 0.25);

    // No close button; no visible progress bar.
    await expect(page.locator('.Toastify__toast .Toastify__close-button')).toHaveCount(0);
    for (const bar of await page.locator('.Toastify__toast [role="progressbar"]').all()) {
      await expect(bar).toHaveAttribute('aria-hidden', 'true');
    }
    for (const wrapper of await page.locator('.Toastify__toast .Toastify__progress-bar--wrp').all()) {
      await expect(wrapper).toHaveCSS('opacity', '0');
    }

    // A second toast (a failed login, reached without reloading) goes above the first.
    await page.getByRole('navigation').getByRole('link', { name: 'Login', exact: true }).click();
    await failLogin(page, existing.email);
    const newer = errorToast(page, messages.loginFailed);
    await expect(newer).toBeVisible();
    await expect(older).toBeVisible();
    const olderBox = await older.boundingBox();
    const newerBox = await newer.boundingBox();
    expect(newerBox?.y ?? Infinity, 'the newest toast is on top').toBeLessThan(olderBox?.y ?? -Infinity);

    // Tapping a toast dismisses it at once, long before its 5 s are up.
    const started = Date.now();
    await newer.click();
    await expect(newer).toBeHidden({ timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(older).toBeVisible();
  });

  test('[ERR-2] a toast closes by itself after about 5 seconds, and hovering keeps it open', async ({ page }) => {
    await page.goto('/login');
    await failLogin(page, 'nobody-here@example.com');
    const first = errorToast(page, messages.loginFailed);
    await expect(first).toBeVisible();
    const shownAt = Date.now();
    await expect(first).toBeHidden({ timeout: 9_000 });
    const lifetime = Date.now() - shownAt;
    expect(lifetime, 'closes after about 5000 ms').toBeGreaterThan(4_000);
    expect(lifetime).toBeLessThan(8_000);
    // Its exit animation must finish (the element leaves the DOM) before the next toast with the same text.
    await expect(page.locator('.Toastify__toast')).toHaveCount(0);

    // Hovered, it stays well past its 5 s; once the pointer leaves, it closes shortly after.
    await failLogin(page, 'nobody-else@example.com');
    const second = errorToast(page, messages.loginFailed);
    await expect(second).toBeVisible();
    await second.hover();
    // Deliberate wait: proving a toast does NOT close needs time to pass.
    await page.waitForTimeout(6_500);
    await expect(second).toBeVisible();
    await page.mouse.move(5, 700);
    const leftAt = Date.now();
    await expect(second).toBeHidden({ timeout: 8_000 });
    expect(Date.now() - leftAt).toBeGreaterThan(500);
  });

  test('[ERR-1] a failed response with details: title error.code, body the first detail message', async ({
    page,
    makeUser,
  }) => {
    const existing = await makeUser();
    await page.goto('/register');
    await fillRegisterForm(page, newSignupBody({ username: existing.username }));
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/signup'));
    await registerButton(page).click();
    const { error } = (await (await responsePromise).json()) as ErrorEnvelope;
    const first = error.details?.[0];
    expect(first, 'the conflict carries a detail').toBeTruthy();
    const titled = errorToast(page, error.code ?? '');
    await expect(titled).toBeVisible();
    await expect(titled).toContainText(first?.message ?? '');
    // The title is bold.
    const title = titled.getByText(error.code ?? '', { exact: true });
    const weight = await title.evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(weight)).toBeGreaterThanOrEqual(600);
    await expect(successToast(page, messages.registered)).toHaveCount(0);
  });
});
