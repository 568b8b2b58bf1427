import { RoleType, UserGameType, type GameVersion, type UserGame } from '@reskin/contract';
import type { FileChooser, Locator, Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from '../fixtures/axe';
import { gameRow } from '../fixtures/games';
import { test, expect, navLink, openWithToken, type TestUser } from '../fixtures/test';
import {
  createUserGame,
  createVersion,
  deleteUserGame,
  pngFiles,
  sampleGame,
  sampleGameName,
  uploadPng,
  type SampleGame,
} from '../fixtures/versions';
import { workbenchUrl } from '../fixtures/workbench';

interface Seed {
  admin: TestUser;
  artist: TestUser;
  game: SampleGame;
  /** The sample game as an image job: a Finished version with one replaced image and an open note on it. */
  images: { userGame: UserGame; version: GameVersion };
  /** The sample game as a sound job: a version. */
  sounds: { userGame: UserGame; version: GameVersion };
}

/**
 * An admin and an artist with both kinds of work on the sample game, made through the API as people make it: the
 * inboxes, the review screen's notes and "To review" all have something to show. The assignments go afterwards.
 */
const it = test.extend<{ seed: Seed }>({
  seed: async ({ api, makeUser }, use) => {
    const admin = await makeUser(RoleType.Admin);
    const artist = await makeUser();
    const game = await sampleGame(api);
    const imageJob = await createUserGame(api, { userId: artist.id, gameId: game.id });
    const soundJob = await createUserGame(api, {
      userId: artist.id,
      gameId: game.id,
      userGameTypeId: UserGameType.SoundReplace,
    });
    try {
      const version = await createVersion(api, artist.token, imageJob, 'Night sky');
      const [image] = await pngFiles(api, game.id);
      if (!image) throw new Error('the sample game has no PNG image');
      await uploadPng(api, artist.token, version.id, image);
      await ok(api.post('/game-versions/done', { id: version.id }, artist.token));
      await ok(
        api.post(
          `/game-versions/${version.id}/notes`,
          { text: 'A little brighter', fileId: image.fileId },
          admin.token,
        ),
      );
      const soundVersion = await createVersion(api, artist.token, soundJob, 'Low beeps');
      await use({
        admin,
        artist,
        game,
        images: { userGame: imageJob, version },
        sounds: { userGame: soundJob, version: soundVersion },
      });
    } finally {
      await deleteUserGame(api, imageJob.id);
      await deleteUserGame(api, soundJob.id);
    }
  },
});

async function ok(response: Promise<{ status(): number; text(): Promise<string> }>): Promise<void> {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBeLessThan(300);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** Opens the navigation bar's inbox, checks the dialog (the screen behind it is checked on its own), and closes it. */
async function checkInbox(page: Page): Promise<void> {
  await page.getByTestId('inbox-bell').click();
  const inbox = page.getByRole('dialog', { name: /^Inbox/ });
  await expect(inbox.locator('[data-event-id]').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the inbox', '.modal');
  await page.keyboard.press('Escape');
  await expect(inbox).toBeHidden();
}

// Decision 0051: axe-core on every screen, one browser context per role visiting its screens in turn; any serious or
// critical violation fails (all screens are checked, then every failing one is listed).
test.describe('accessibility: axe-core finds nothing serious on any screen', () => {
  test('login and register', async ({ page }) => {
    await page.goto('/login');
    await expect(heading(page, 'Login')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'login');
    await page.goto('/register');
    await expect(heading(page, 'Register')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'register');
  });

  it("an admin's screens", async ({ page, seed }) => {
    test.setTimeout(120_000); // axe-core takes 1 to 4 s a screen on a busy machine
    const { admin, artist, game, images } = seed;
    const { version } = images;
    await openWithToken(page, admin.token, '/games');
    await expect(gameRow(page, sampleGameName)).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'games');

    await page.goto(`/games/game-files?gameId=${game.id}`);
    await expect(heading(page, `Game files of ${sampleGameName}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mark splash' }).first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'game files');

    await page.goto('/admin');
    await expect(heading(page, /^Registered users/)).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'users');

    await page.goto(`/user-game-list?q=${artist.username}`);
    await expect(page.getByRole('button', { name: 'Remove Access' })).toHaveCount(2);
    await expectNoSeriousAxeViolations(page, 'user games');

    await page.goto(
      `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${version.gameId}&userGameId=${version.userGamesId}`,
    );
    await expect(heading(page, `Review of ${version.name}`)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Notes/ }).first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'review');

    await page.goto('/to-review');
    await expect(page.getByRole('row').filter({ hasText: artist.username })).toContainText(version.name);
    await expectNoSeriousAxeViolations(page, 'to review');

    await checkInbox(page);

    await page.goto('/account');
    await expect(page.getByLabel('Username')).toHaveValue(admin.username);
    await expectNoSeriousAxeViolations(page, 'account');
  });

  it("an artist's screens", async ({ page, seed }) => {
    test.setTimeout(120_000);
    const { artist, images, sounds } = seed;
    await openWithToken(page, artist.token, '/my-games');
    await expect(page.getByText(sampleGameName).first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'my games');

    await page.goto(workbenchUrl(images.version));
    await expect(page.getByRole('heading', { name: 'Replace from a folder or .zip' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Notes/ }).first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'workbench (images)');

    await page.goto(workbenchUrl(sounds.version));
    await expect(page.getByRole('heading', { name: /^Current Game Files/ })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'workbench (audio)');

    await checkInbox(page);

    await page.goto('/account');
    await expect(page.getByLabel('Username')).toHaveValue(artist.username);
    await expectNoSeriousAxeViolations(page, 'account');
  });
});

/** Presses Tab until `target` has the focus (at most `presses` times); fails if it never does. */
async function tabTo(page: Page, target: Locator, presses = 80): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    if (await handle?.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The focused element's ring: Bootstrap draws a box-shadow on a focused button, the browser an outline. */
async function focusRing(page: Page): Promise<{ outline: string; boxShadow: string }> {
  return page.evaluate(() => {
    const style = getComputedStyle(document.activeElement ?? document.body);
    return { outline: style.outlineStyle, boxShadow: style.boxShadow };
  });
}

async function expectFocusRing(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('button', { name, exact: true })).toBeFocused();
  const ring = await focusRing(page);
  expect(
    ring.outline !== 'none' || ring.boxShadow !== 'none',
    `${name}'s focus ring: ${JSON.stringify(ring)}`,
  ).toBe(true);
}

/** Presses `key` on the focused control and answers the file chooser it opened. */
async function chooserFrom(page: Page, key: 'Enter' | ' '): Promise<FileChooser> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.keyboard.press(key === ' ' ? 'Space' : key),
  ]);
  return chooser;
}

// Decision 0051: every control is reached and worked with the keyboard, with a visible focus ring, and the focus
// starts on the new page's heading after a page change.
test.describe('accessibility: the keyboard', () => {
  it('[GF-1] on the game files screen Tab reaches Choose folder, Choose files and Choose .zip in turn, each with a focus ring, and Enter opens the chooser', async ({
    page,
    seed,
  }) => {
    const { admin, game } = seed;
    await openWithToken(page, admin.token, `/games/game-files?gameId=${game.id}`);
    const upload = page.getByRole('region', { name: 'Upload game files' });
    await expect(upload.getByRole('button', { name: 'Choose folder' })).toBeVisible();
    await tabTo(page, upload.getByRole('button', { name: 'Choose folder' }));
    await expectFocusRing(page, 'Choose folder');
    await page.keyboard.press('Tab');
    await expectFocusRing(page, 'Choose files');
    await page.keyboard.press('Tab');
    await expectFocusRing(page, 'Choose .zip');
    // The file inputs themselves are never in the tab order.
    await expect(upload.locator('input[type="file"]:not([tabindex="-1"])')).toHaveCount(0);
    await page.keyboard.press('Shift+Tab');
    const chooser = await chooserFrom(page, 'Enter');
    expect(chooser.isMultiple()).toBe(true);
  });

  it("on the workbench Tab reaches the 'Replace from a folder or .zip' area's choices, and Enter or Space opens the chooser", async ({
    page,
    seed,
  }) => {
    const { artist, sounds } = seed;
    await openWithToken(page, artist.token, workbenchUrl(sounds.version));
    const batch = page.getByTestId('batch-replace');
    await expect(batch.getByRole('button', { name: 'Choose folder' })).toBeVisible();
    await tabTo(page, batch.getByRole('button', { name: 'Choose folder' }));
    await expectFocusRing(page, 'Choose folder');
    const folder = await chooserFrom(page, 'Enter');
    expect(folder.isMultiple()).toBe(true);
    await page.keyboard.press('Tab');
    await expectFocusRing(page, 'Choose .zip');
    const zip = await chooserFrom(page, ' ');
    expect(zip.isMultiple()).toBe(false);
  });

  test("after the login and after a page change the focus is on the new page's heading, not on the first load", async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await page.goto('/login');
    await expect(heading(page, 'Login')).toBeVisible();
    expect(
      await page.evaluate(() => document.activeElement === document.body),
      'the first load moves nothing',
    ).toBe(true);
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(heading(page, /^Welcome to/)).toBeFocused();

    // A link of the bar followed with the keyboard, then another with the mouse.
    await navLink(page, 'My Games').focus();
    await page.keyboard.press('Enter');
    await expect(heading(page, 'My Games')).toBeFocused();
    await navLink(page, user.username).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(heading(page, 'Account Settings')).toBeFocused();
  });

  it("a link followed from the inbox's dialog leaves the focus on the new page's heading", async ({
    page,
    seed,
  }) => {
    const { artist } = seed;
    await openWithToken(page, artist.token, '/account');
    await expect(heading(page, 'Account Settings')).toBeVisible();
    await page.getByTestId('inbox-bell').click();
    const inbox = page.getByRole('dialog', { name: /^Inbox/ });
    await inbox
      .getByRole('link', { name: /assigned you/ })
      .first()
      .click();
    await expect(inbox).toBeHidden();
    await expect(heading(page, /: versions$/)).toBeFocused();
  });
});
