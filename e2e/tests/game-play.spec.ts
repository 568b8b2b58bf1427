import { GameStatus, RoleType, messages } from '@reskin/contract';
import {
  test,
  expect,
  fileRow,
  filesOf,
  gameById,
  gameRow,
  openGameFiles,
  openWithToken,
  readyGame,
  rowButton,
  successToast,
} from '../fixtures/games';
import { canvasPaint, gameFrame } from '../fixtures/play';
import { sampleFiles, sampleFolder } from '../fixtures/sample-game';

const sampleFileCount = sampleFiles.length;

test.describe('admin game play', () => {
  test('[GF-1][GF-2][GAM-4][GAM-3] the sample game uploaded through the UI, generated, plays and draws in the frame', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    test.setTimeout(120_000);
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame({
      width: 640,
      height: 480,
      description: 'The sample game, uploaded by a test',
    });

    // Upload the folder through the UI, as an admin would pick it.
    await openGameFiles(page, admin, game);
    await page.locator('#folder-input').setInputFiles(sampleFolder);
    await expect(successToast(page, messages.uploaded)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: `Game Files (${sampleFileCount})` })).toBeVisible();
    const paths = (await filesOf(api, game.id)).map((f) => f.path);
    expect(paths).toHaveLength(sampleFileCount);
    // The chosen folder's own name is left out of the paths (decision 0052), as a zip's top folder is.
    expect(paths).toContain('game/index.html');
    expect(paths).toContain('lib/engine.js');

    // The only index.html is marked index by the upload itself; the admin marks the splash.
    const index = fileRow(page, 'game/index.html');
    await expect(index.getByText('Index', { exact: true })).toBeVisible();
    await expect(rowButton(index, 'Mark index')).toBeDisabled();
    const splash = fileRow(page, 'assets/img/splash.png');
    await rowButton(splash, 'Mark splash').click();
    await expect(successToast(page, messages.splashUpdated)).toBeVisible();
    await expect(splash.getByText('Splash', { exact: true })).toBeVisible();

    // Gen. on the games list, until Ready.
    await page.getByRole('link', { name: 'Back to games' }).click();
    await expect(page).toHaveURL(/\/games$/);
    // Other tests add games meanwhile: the list is searched for this one.
    await page.getByRole('searchbox', { name: 'Search by name' }).fill(game.name);
    const row = gameRow(page, game.name);
    await expect(rowButton(row, 'Play')).toBeDisabled();
    await rowButton(row, 'Gen.').click();
    await expect(successToast(page, messages.gameFilesGenerating)).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible({ timeout: 60_000 });
    expect((await gameById(api, game.id)).gameStatusTypeId).toBe(GameStatus.Ready);

    // Play.
    await rowButton(row, 'Play').click();
    await expect(page).toHaveURL(new RegExp(`/games/game-play\\?gameId=${game.id}$`));
    await expect(page.getByRole('heading', { name: game.name })).toBeVisible();
    const iframe = page.locator('iframe');
    await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-pointer-lock');
    await expect(iframe).toHaveAttribute('allow', 'autoplay; fullscreen; gamepad');
    await expect(iframe).toHaveAttribute('width', '690');
    await expect(iframe).toHaveAttribute('height', '530');
    const box = await iframe.boundingBox();
    expect(box?.width).toBe(690);
    expect(box?.height).toBe(530);
    // The play origin is not the app's origin.
    const src = (await iframe.getAttribute('src')) ?? '';
    expect(new URL(src).origin).not.toBe(new URL(page.url()).origin);
    expect(src).toMatch(/\/p\/[^/]+\/game\/index\.html$/);

    // The game really runs: its canvas fills with the images' many colours (about 1600 on the title screen; the
    // loading screen, a flat fill with white text, has a few dozen).
    const frame = await gameFrame(page);
    await expect
      .poll(async () => (await canvasPaint(frame)).colours, {
        timeout: 30_000,
        message: 'distinct canvas colours',
      })
      .toBeGreaterThan(500);
    const paint = await canvasPaint(frame);
    test.info().annotations.push({ type: 'canvas', description: JSON.stringify(paint) });
    expect(paint.opaque).toBeGreaterThan(640 * 480 * 0.9);
    await expect(frame.locator('canvas#game')).toBeVisible();
  });

  test('[GAM-3] the play frame is resizable by its handle and the game is focused', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame({ width: 300, height: 400 });
    await readyGame(api, game);
    await openWithToken(page, admin.token, `/games/game-play?gameId=${game.id}`);
    const iframe = page.locator('iframe');
    await expect(iframe).toHaveAttribute('width', '350');
    await expect(iframe).toHaveAttribute('height', '450');
    // Focused on load: the frame element is the page's active element.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');

    const handle = page.getByRole('button', { name: /resize the game frame/i });
    const start = await handle.boundingBox();
    if (!start) throw new Error('no resize handle');
    const x = start.x + start.width / 2;
    const y = start.y + start.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 60, y + 40, { steps: 6 });
    await page.mouse.move(x + 100, y + 70, { steps: 6 });
    await page.mouse.up();
    await expect(iframe).toHaveAttribute('width', '450');
    await expect(iframe).toHaveAttribute('height', '520');

    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/games$/);
  });

  test('[GAM-3] a game that is not Ready does not play, even from a pasted link', async ({
    page,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openWithToken(page, admin.token, `/games/game-play?gameId=${game.id}`);
    await expect(page.getByRole('heading', { name: game.name })).toBeVisible();
    await expect(page.getByText(/The game is Draft/)).toBeVisible();
    await expect(page.locator('iframe')).toHaveCount(0);
  });
});
