import { messages, UserGameType, validationMessages, type GameFile } from '@reskin/contract';
import type { Frame, Page } from '@playwright/test';
import { fillRegisterForm, registerButton } from '../fixtures/forms';
import { filesOf } from '../fixtures/games';
import { readmeScreenshot } from '../fixtures/screenshots';
import {
  canvasPaint,
  canvasSized,
  clearToasts,
  drawnPixel,
  fetchInFrame,
  openPlayTab,
  playRequest,
} from '../fixtures/play';
import {
  test,
  expect,
  loginViaUi,
  navLink,
  newSignupBody,
  openWithToken,
  toast,
  type Api,
} from '../fixtures/test';
import { createUserGame, deleteUserGame, sampleGame, solidPng } from '../fixtures/versions';
import { wav } from '../fixtures/workbench';

/** Registers through the register screen and logs in through the login screen, as a new artist would. */
async function registerAndLogIn(page: Page, api: Api, cleanupUser: (id: number) => void) {
  const body = newSignupBody();
  await page.goto('/register');
  await fillRegisterForm(page, body);
  await registerButton(page).click();
  await expect(toast(page, messages.registered)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const found = await api.post(
    '/user/list',
    { where: { email: body.email }, fields: { id: true } },
    await api.asAdmin(),
  );
  const [user] = (await found.json()) as { id: number }[];
  if (!user) throw new Error('the registered user is missing');
  cleanupUser(user.id);
  await loginViaUi(page, body.email, body.password);
  return { id: user.id, username: body.username };
}

/** The game frame of a play tab, once its canvas has a size. */
async function drawnGameFrame(page: Page, game: string, tab: string): Promise<Frame> {
  const frame = await openPlayTab(page, game, tab);
  await canvasSized(frame);
  // The game draws its title screen (hundreds of colours) only once every image has loaded; before that
  // the canvas holds a plain loading fill.
  await expect
    .poll(async () => (await canvasPaint(frame)).colours, {
      timeout: 30_000,
      message: `${tab}: title screen`,
    })
    .toBeGreaterThan(500);
  return frame;
}

/** The admin opens the user-game's versions and sees the version marked Finished. */
async function adminSeesFinished(page: Page, api: Api, userGameId: number, versionName: string) {
  const adminPage = await page.context().browser()!.newPage();
  try {
    await openWithToken(
      adminPage,
      await api.asAdmin(),
      `/user-game-list/game-versions?userGameId=${userGameId}`,
    );
    const row = adminPage.getByRole('row').filter({ hasText: versionName });
    await expect(row.getByText('Finished', { exact: true })).toBeVisible();
  } finally {
    await adminPage.close();
  }
}

async function createVersionViaUi(page: Page, gameName: string, name: string) {
  await navLink(page, 'My Games').click();
  await page.getByRole('link', { name: gameName }).click();
  await expect(page).toHaveURL(/\/my-games\/versions\?/);
  await page.getByRole('link', { name: 'Add New Version' }).click();
  await page.locator('#name').fill(name);
  await page.locator('#description').fill(`The ${name} of the story walk`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, messages.versionSaved)).toBeVisible();
  await page.getByRole('region', { name }).getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(/\/my-games\/versions\/workbench\?/);
  await expect(page.getByRole('tab', { name: 'Files', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
}

test.describe('the artist story', () => {
  test('[WB-6][WB-14][WB-4][MG-1][VER-4] a new artist registers, gets the sample game, replaces an image, plays it and finishes', async ({
    page,
    api,
    cleanupUser,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const game = await sampleGame(api);
    const artist = await registerAndLogIn(page, api, cleanupUser);

    await navLink(page, 'My Games').click();
    await expect(page.getByText('There is no game.')).toBeVisible();
    const userGame = await createUserGame(api, {
      userId: artist.id,
      gameId: game.id,
      userGameTypeId: UserGameType.ReSkin,
    });
    try {
      await page.reload();
      await expect(page.getByRole('heading', { name: game.name })).toBeVisible();
      await createVersionViaUi(page, game.name, 'Pink splash');

      const splash = (await filesOf(api, game.id)).find((f) => f.path.endsWith('/splash.png')) as GameFile;
      const input = page.locator(`input[aria-label="Replace ${splash.path}"]`);
      const card = page.getByRole('region', { name: splash.path });
      await expect(card.getByText('360 x 240', { exact: true })).toBeVisible();

      // A wrong size is refused in the browser with the spec's words; nothing is uploaded.
      await input.setInputFiles({
        name: 'splash.png',
        mimeType: 'image/png',
        buffer: solidPng(100, 50, [0, 0, 0]),
      });
      const refusal = validationMessages.imageSize({ width: 360, height: 240 }, { width: 100, height: 50 });
      await expect(toast(page, refusal)).toBeVisible();
      await expect(card.getByRole('alert')).toHaveText(refusal);
      await expect(card.getByText('Skeleton (not replaced yet)')).toBeVisible();

      // The right size goes up; the preview switches to the artist's image.
      const pink: [number, number, number] = [230, 20, 160];
      await input.setInputFiles({
        name: 'splash.png',
        mimeType: 'image/png',
        buffer: solidPng(360, 240, pink),
      });
      await expect(toast(page, messages.uploaded)).toBeVisible();
      await expect(card.getByRole('img', { name: `Your ${splash.path}` })).toBeVisible();
      await expect(card.getByText('Your image')).toBeVisible();
      await clearToasts(page);
      await readmeScreenshot(page, test.info(), 'workbench-images.png');

      // Play Your Version draws the new splash; the watermarked original does not.
      await expect(page.getByRole('button', { name: 'I Finished My Game' })).toHaveCount(0);
      const own = await drawnGameFrame(page, game.name, 'Play Your Version');
      // The splash is drawn at ((640 - 360) / 2, 70); (160, 90) is inside it and outside its star.
      expect(await drawnPixel(own, 160, 90)).toEqual(pink);
      // The same region of the page, where the frame shows the splash (the game sits 25 px inside the frame).
      const box = await page.locator('iframe').boundingBox();
      if (!box) throw new Error('the frame has no box');
      const region = { x: box.x + 25 + 140, y: box.y + 25 + 70, width: 360, height: 240 };
      const ownShot = await page.screenshot({ clip: region });
      await readmeScreenshot(page, test.info(), 'play-version.png');

      const original = await drawnGameFrame(page, game.name, 'Play Original Game');
      expect(await drawnPixel(original, 160, 90)).not.toEqual(pink);
      const originalShot = await page.screenshot({ clip: region });
      expect(originalShot.equals(ownShot)).toBe(false);

      // 'I Finished My Game' tells the reviewer.
      await page.getByRole('button', { name: 'I Finished My Game' }).click();
      await page
        .getByRole('dialog')
        .filter({ hasText: messages.confirmFinishVersion })
        .getByRole('button', { name: 'Confirm', exact: true })
        .click();
      await expect(toast(page, messages.informed)).toBeVisible();
      await adminSeesFinished(page, api, userGame.id, 'Pink splash');
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });

  test('[WB-8][WB-9][WB-14][WB-4] a new artist with a sound assignment replaces a sound, hears it in the game and finishes', async ({
    page,
    api,
    cleanupUser,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const game = await sampleGame(api);
    const artist = await registerAndLogIn(page, api, cleanupUser);
    const userGame = await createUserGame(api, {
      userId: artist.id,
      gameId: game.id,
      userGameTypeId: UserGameType.SoundReplace,
    });
    try {
      await createVersionViaUi(page, game.name, 'Low beeps');
      await expect(page.getByRole('heading', { name: 'Current Game Files (4)' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Play Skeleton Game' })).toHaveCount(0);

      const catchPath = (await filesOf(api, game.id)).find((f) => f.path.endsWith('/catch.wav'))!.path;
      const row = page.getByRole('row').filter({ hasText: catchPath });
      const input = row.locator(`input[aria-label="Replace ${catchPath}"]`);

      // Not a sound: refused with the spec's words.
      await input.setInputFiles({
        name: 'catch.wav',
        mimeType: 'image/png',
        buffer: solidPng(4, 4, [1, 2, 3]),
      });
      await expect(toast(page, validationMessages.notAudio)).toBeVisible();
      await expect(row.getByText('Original sound')).toBeVisible();

      const beep = wav(220, 2400); // 0.3 s
      await input.setInputFiles({ name: 'catch.wav', mimeType: 'audio/wav', buffer: beep });
      await expect(toast(page, messages.uploaded)).toBeVisible();
      await expect(row.getByText('Your sound')).toBeVisible();
      // The row's player plays the new sound.
      // (Fetched by the test itself: the app page's CSP lets it connect to its own origin only.)
      const playerUrl = await row.locator('audio').getAttribute('src');
      const playerBytes = (await (await playRequest(page, playerUrl ?? '')).body()).length;
      expect(playerBytes).toBe(beep.length);
      await clearToasts(page);
      await readmeScreenshot(page, test.info(), 'workbench-audio.png');

      // The game in Play Your Version loads the new sound; the original view still has the old one.
      const soundIn = async (frame: Frame) => {
        const bytes = await fetchInFrame(frame, '../assets/sfx/catch.wav');
        return { length: bytes.length, head: Array.from(bytes.subarray(0, 64)) };
      };
      const own = await soundIn(await drawnGameFrame(page, game.name, 'Play Your Version'));
      expect(own).toEqual({ length: beep.length, head: Array.from(beep.subarray(0, 64)) });
      const original = await soundIn(await drawnGameFrame(page, game.name, 'Play Original Game'));
      expect(original.length).not.toBe(beep.length);

      await page.getByRole('button', { name: 'I Finished My Game' }).click();
      await page
        .getByRole('dialog')
        .filter({ hasText: messages.confirmFinishVersion })
        .getByRole('button', { name: 'Confirm', exact: true })
        .click();
      await expect(toast(page, messages.informed)).toBeVisible();
      await adminSeesFinished(page, api, userGame.id, 'Low beeps');
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });
});
