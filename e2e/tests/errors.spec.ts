import { conflictMessages, errorCodes, messages, toastSettings, type ErrorEnvelope } from '@reskin/contract';
import {
  test,
  expect,
  errorToast,
  expectOneErrorToast,
  newSignupBody,
  successToast,
  unknownEmail,
} from '../fixtures/test';
import { fillRegisterForm, registerButton } from '../fixtures/forms';
import type { Locator, Page } from '@playwright/test';
import { pauseClock } from '../fixtures/clock';

interface ToastAnimation {
  text: string;
  name: string;
  duration: string;
}

/**
 * From now on the page notes every animation that starts on a toast, with its computed duration: a closing
 * toast is gone 300 ms later, too soon to be sure to catch it with a locator.
 */
async function recordToastAnimations(page: Page): Promise<void> {
  await page.evaluate(() => {
    const started: ToastAnimation[] = [];
    Object.assign(window, { toastAnimations: started });
    document.addEventListener(
      'animationstart',
      (event) => {
        const target = event.target;
        if (target instanceof HTMLElement && target.classList.contains('Toastify__toast')) {
          const { animationDuration } = getComputedStyle(target);
          started.push({
            text: target.textContent ?? '',
            name: event.animationName,
            duration: animationDuration,
          });
        }
      },
      true,
    );
  });
}

/** The toast showing `text` closes: its exit animation of SPEC §9's 300 ms starts, then it leaves the page. */
async function expectClosing(page: Page, toastElement: Locator, text: string): Promise<void> {
  const closing = { text, name: 'Toastify__slideOutRight', duration: `${toastSettings.animationMs / 1000}s` };
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { toastAnimations: ToastAnimation[] }).toastAnimations),
    )
    .toContainEqual(closing);
  await expect(toastElement).toHaveCount(0);
  await page.evaluate(() =>
    (window as unknown as { toastAnimations: ToastAnimation[] }).toastAnimations.splice(0),
  );
}

/**
 * The toast has shown: in, and its 300 ms entering slide (real time) over, which takes its enter classes away. The
 * page's clock runs 5000 ms in far less real time: a toast closed while still sliding in keeps the entering
 * animation and leaves when it ends, without the exit animation (react-toastify's cssTransition): the test failed so.
 */
async function expectShown(toastElement: Locator): Promise<void> {
  await expect(toastElement).toHaveAttribute('data-in', 'true');
  await expect(toastElement).not.toHaveClass(/Toastify__slide-enter/);
}

/** Whether the pointer is on the element as the page sees it (its mouseenter handled, its mouseleave not yet). */
const isHovered = (element: Locator) => element.evaluate((node) => node.matches(':hover'));

test.describe('errors and toasts', () => {
  test('[ERR-2] toasts sit top-right without progress bar or close button, newest on top, and tap to dismiss', async ({
    page,
    makeUser,
  }) => {
    await page.clock.install();
    const existing = await makeUser();
    await page.goto('/register');
    // The page's clock stands still from here, so no toast closes by time while a loaded machine works through
    // the steps (with it running, the first toast closed 5 s after it showed, before the second was there: the
    // test failed on a loaded machine). Both failures come from this page: its form needs no timer.
    await pauseClock(page);
    // The first failure: a taken email.
    await fillRegisterForm(page, newSignupBody({ email: existing.email }));
    await registerButton(page).click();
    const older = errorToast(page, conflictMessages.email);
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

    // A second failure on the same page (a taken username, no reload): its toast goes above the first.
    await page.locator('#email').fill(newSignupBody().email);
    await page.locator('#username').fill(existing.username);
    await registerButton(page).click();
    const newer = errorToast(page, conflictMessages.username);
    await expect(newer).toBeVisible();
    await expect(older).toBeVisible();
    const olderBox = await older.boundingBox();
    const newerBox = await newer.boundingBox();
    expect(newerBox?.y ?? Infinity, 'the newest toast is on top').toBeLessThan(olderBox?.y ?? -Infinity);

    // Tapping a toast dismisses it: with the page's clock stopped, no timer can have done it.
    await newer.click();
    await expect(newer).toHaveCount(0);
    await expect(older).toBeVisible();
  });

  test('[ERR-2] a toast closes 5000 ms after it shows; hovered it stays, then closes 1000 ms after the hover with a 300 ms animation', async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/login');
    await page.locator('#email').fill(unknownEmail());
    await page.locator('#password').fill('wrong-password');
    await recordToastAnimations(page);
    await pauseClock(page);
    const login = page.getByRole('button', { name: 'Login', exact: true });
    // The toast's text content: its title, then the spec's text.
    const toastText = `Login failed${messages.loginFailed}`;

    await login.click();
    const first = errorToast(page, messages.loginFailed);
    await expectShown(first);
    await page.clock.runFor(toastSettings.displayMs - 1);
    await expect(first).toHaveAttribute('data-in', 'true');
    await page.clock.runFor(1);
    await expectClosing(page, first, toastText);

    await login.click();
    const second = errorToast(page, messages.loginFailed);
    await expectShown(second);
    // The page may handle a mouse move a frame after Playwright has sent it: the clock runs on only once the
    // toast is hovered (its mouseenter handled), and again once it is not (its mouseleave handled). Run on
    // before that, its timer started after runFor and never came due (the test failed on a loaded machine).
    await second.hover();
    await expect.poll(() => isHovered(second)).toBe(true);
    await page.clock.runFor(toastSettings.displayMs * 2);
    await expect(second).toHaveAttribute('data-in', 'true');
    await page.mouse.move(5, 700);
    await expect.poll(() => isHovered(second)).toBe(false);
    await page.clock.runFor(toastSettings.extendedAfterHoverMs - 1);
    await expect(second).toHaveAttribute('data-in', 'true');
    await page.clock.runFor(1);
    await expectClosing(page, second, toastText);
  });

  test('[ERR-1] a failed response with details: one toast, a bold title in words, the first detail message; the code only in the envelope', async ({
    page,
    makeUser,
  }) => {
    const existing = await makeUser();
    await page.clock.install();
    await page.goto('/register');
    await pauseClock(page);
    // A taken username only (the email is free).
    await fillRegisterForm(page, newSignupBody({ username: existing.username, email: unknownEmail() }));
    const responsePromise = page.waitForResponse((response) => response.url().endsWith('/api/user/signup'));
    await registerButton(page).click();
    const { error } = (await (await responsePromise).json()) as ErrorEnvelope;
    const first = error.details?.[0];
    expect(first, 'the conflict carries a detail').toBeTruthy();
    expect(error.code).toBe(errorCodes.usernameExists);
    // Registration's product text (SPEC §8), the first detail under it.
    const shown = await expectOneErrorToast(page, {
      title: 'Already in use',
      text: messages.registerFailed,
      reason: first?.message ?? '',
    });
    // The title is bold; neither the code nor the error's class name is shown.
    const weight = await shown.locator('.toast-title').evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(weight)).toBeGreaterThanOrEqual(600);
    await expect(shown).not.toContainText(error.code ?? '');
    await expect(shown).not.toContainText(error.name);
    await expect(successToast(page, messages.registered)).toHaveCount(0);
  });
});
