import type { Page } from '@playwright/test';
import { GameStatus, RoleType, messages, type Game } from '@reskin/contract';
import {
  test,
  expect,
  fileByPath,
  fileRow,
  gameById,
  gameRow,
  loginViaUi,
  markIndex,
  navLink,
  openWithToken,
  rgbaPng,
  rowButton,
  successToast,
  uploadFiles,
  waitForStatus,
  type Api,
  type FilePayload,
} from '../fixtures/games';
import { drawnPixel, gameFrame } from '../fixtures/play';
import { selfUnpackingGame, threadedGame, unityStyleGame } from '../fixtures/play-settings-games';
import { createUserGame, createVersion } from '../fixtures/versions';

/**
 * Pre-compressed files in both conventions, and cross-origin isolation for threaded games, with small
 * games written for it (fixtures/play-settings-games.ts) that draw green when they run and red when they cannot.
 */

const green = [0, 200, 0];
/** Waits that include a document reload or a lazy screen on a busy machine. */
const slow = 30_000;
const red = [220, 0, 0];

async function readyWith(api: Api, game: Game, files: FilePayload[], index: string): Promise<Game> {
  await uploadFiles(api, game.id, files);
  await markIndex(api, game.id, (await fileByPath(api, game.id, index)).fileId);
  const generated = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
  expect(generated.status(), await generated.text()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  return gameById(api, game.id);
}

/** The admin's play screen of the game, loaded as a document; the colour its canvas shows. */
async function adminPlayColour(page: Page, token: string, game: Game): Promise<number[]> {
  await openWithToken(page, token, `/games/game-play?gameId=${game.id}`);
  await expect(page.locator(`iframe[title="${game.name} (game)"]`)).toBeVisible({ timeout: slow });
  return drawnPixel(await gameFrame(page, `${game.name} (game)`), 60, 40);
}

/** The game files screen (a loaded machine can take a while for the reloads and lazy screens of this test). */
async function openFiles(page: Page, token: string, game: Game): Promise<void> {
  await openWithToken(page, token, `/games/game-files?gameId=${game.id}`);
  await expect(page.getByRole('heading', { name: `Game files of ${game.name}` })).toBeVisible({
    timeout: slow,
  });
}

/** Chooses a play setting on the game files screen and waits for it to be saved. */
async function choose(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label).selectOption(value);
  await expect(successToast(page, 'Play settings saved.')).toBeVisible();
}

const precompressedLabel = 'Pre-compressed files (.gz, .br)';
const isolationLabel = 'Cross-origin isolation (SharedArrayBuffer, threads)';

test.describe('pre-compressed files', () => {
  // Upload, generation and three screen loads each: over a minute on a busy two-core machine.
  test.describe.configure({ timeout: 180_000 });

  test('a game that unpacks x.wasm.gz itself plays on automatic (stored); served encoded it breaks', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await readyWith(api, await makeGame(), selfUnpackingGame('godot'), 'godot/index.html');
    expect(game).toMatchObject({ precompressed: 'auto', precompressedDecided: 'stored' });

    await openFiles(page, admin.token, game);
    await expect(page.getByLabel(precompressedLabel)).toHaveValue('auto');
    await expect(page.getByTestId('precompressed-decision')).toContainText(
      'Automatic decided served as stored',
    );
    await expect(page.getByTestId('precompressed-decision')).toContainText('No Unity loader');
    expect(await adminPlayColour(page, admin.token, game)).toEqual(green);

    await openFiles(page, admin.token, game);
    await choose(page, precompressedLabel, 'encoded');
    await expect(page.getByTestId('precompressed-decision')).toContainText('Now served encoded');
    expect(await adminPlayColour(page, admin.token, game)).toEqual(red);
  });

  test('a Unity-style game (Build/x.loader.js, x.framework.js.gz) plays on automatic (encoded); served as stored it breaks', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await readyWith(api, await makeGame(), unityStyleGame('unity'), 'unity/index.html');
    expect(game).toMatchObject({ precompressed: 'auto', precompressedDecided: 'encoded' });

    await openFiles(page, admin.token, game);
    await expect(page.getByTestId('precompressed-decision')).toContainText(
      'unity/Build/x.loader.js is a Unity loader',
    );
    expect(await adminPlayColour(page, admin.token, game)).toEqual(green);

    await openFiles(page, admin.token, game);
    await choose(page, precompressedLabel, 'stored');
    expect(await adminPlayColour(page, admin.token, game)).toEqual(red);
  });
});

test.describe('cross-origin isolation', () => {
  test("a threaded game draws in the admin's and the artist's play screens, and the rest of the app keeps working", async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    test.setTimeout(300_000);
    const admin = await makeUser(RoleType.Admin);
    const artist = await makeUser(RoleType.User);
    const hero = rgbaPng(32, 32, () => [30, 60, 200]);
    const game = await readyWith(api, await makeGame(), threadedGame('th', hero), 'th/index.html');
    // Detected from threads.wasm, which imports a shared memory.
    expect(game).toMatchObject({ isolated: 'auto', isolatedDecided: true });
    const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
    const version = await createVersion(api, artist.token, userGame, 'threads');

    // The admin: the games list, then Play (a client-side navigation: the play screen loads itself again).
    await openWithToken(page, admin.token, '/games');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await page.getByRole('searchbox', { name: 'Search by name' }).fill(game.name);
    await rowButton(gameRow(page, game.name), 'Play').click();
    const adminFrame = page.locator(`iframe[title="${game.name} (game)"]`);
    await expect(adminFrame).toHaveAttribute(
      'allow',
      'autoplay; fullscreen; gamepad; cross-origin-isolated',
      { timeout: slow },
    );
    expect(await drawnPixel(await gameFrame(page, `${game.name} (game)`), 60, 40)).toEqual(green);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

    // The rest of the app in this same isolated document: lists, the files screen with an upload, the users.
    await navLink(page, 'Games').click();
    await page.getByRole('searchbox', { name: 'Search by name' }).fill(game.name);
    await expect(gameRow(page, game.name)).toBeVisible();
    await rowButton(gameRow(page, game.name), 'Files').click();
    await expect(page.getByRole('heading', { name: `Game files of ${game.name}` })).toBeVisible({
      timeout: slow,
    });
    await expect(page.getByLabel(isolationLabel)).toHaveValue('auto');
    await expect(page.getByTestId('isolated-decision')).toContainText(
      'th/threads.wasm imports a shared memory (env.memory)',
    );
    // Thumbnails (the app origin's previews, decision 0038) still load under COEP credentialless.
    await expect
      .poll(() =>
        page
          .getByRole('img', { name: 'Preview of th/img/hero.png', exact: true })
          .evaluate((img: HTMLImageElement) => img.naturalWidth)
          .catch(() => 0),
      )
      .toBe(32);
    await page
      .locator('#files-input')
      .setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await expect(fileRow(page, 'notes.txt')).toBeVisible();
    // The upload keeps the game Ready: the artist's part below plays it as it is.
    expect((await gameById(api, game.id)).gameStatusTypeId).toBe(GameStatus.Ready);
    await navLink(page, 'User Games').click();
    await expect(page.getByRole('heading', { name: /^User Games \(\d+\)$/ })).toBeVisible({ timeout: slow });
    await navLink(page, 'Admin').click();
    await expect(page.getByText(/Registered users \(\d+\)/)).toBeVisible({ timeout: slow });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await navLink(page, 'Logout').click();
    await expect(navLink(page, 'Login')).toBeVisible();

    // The artist, in the same browser: log in, open the version's workbench, play, upload.
    await loginViaUi(page, artist.email, artist.password);
    await page.goto(`/my-games/versions?userGameId=${userGame.id}&gameId=${game.id}`);
    await page
      .getByRole('region', { name: version.name, exact: true })
      .getByRole('link', { name: 'Open', exact: true })
      .click();
    await page.getByRole('tab', { name: 'Play Your Version', exact: true }).click();
    const artistTitle = `${game.name}: Play Your Version`;
    await expect(page.locator(`iframe[title="${artistTitle}"]`)).toBeVisible({ timeout: slow });
    expect(await drawnPixel(await gameFrame(page, artistTitle), 60, 40)).toEqual(green);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.getByRole('tab', { name: 'Files', exact: true }).click();
    await page.locator('input[type="file"][aria-label="Replace th/img/hero.png"]').setInputFiles({
      name: 'hero.png',
      mimeType: 'image/png',
      buffer: rgbaPng(32, 32, () => [200, 120, 0]),
    });
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    await page.getByRole('tab', { name: 'Play Original Game', exact: true }).click();
    expect(await drawnPixel(await gameFrame(page, `${game.name}: Play Original Game`), 60, 40)).toEqual(
      green,
    );
    await navLink(page, 'My Games').click();
    await expect(page.getByText(game.name).first()).toBeVisible();

    // Off by hand: the same game cannot start (it draws only when cross-origin isolated).
    const off = await api.patch(
      `/games/${game.id}`,
      {
        name: game.name,
        description: game.description,
        width: game.width,
        height: game.height,
        gameStatusTypeId: game.gameStatusTypeId,
        isActive: true,
        isolated: 'off',
      },
      await api.asAdmin(),
    );
    expect(off.status(), await off.text()).toBe(200);
    expect(await adminPlayColour(page, admin.token, game)).toEqual(red);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  });
});
