import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { ZipFile } from 'yazl';
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
  rowButton,
  successToast,
} from '../fixtures/games';
import { canvasPaint, gameFrame } from '../fixtures/play';
import { sampleFiles, sampleFolder } from '../fixtures/sample-game';

/** The sample game zipped as a studio would: everything inside its top folder `star-catcher/`. */
async function sampleZip(): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of sampleFiles) {
    zip.addBuffer(readFileSync(file), `star-catcher/${relative(sampleFolder, file).split(sep).join('/')}`);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test.describe('admin game files: a game as one zip', () => {
  test('[GF-1][GF-2][GAM-4][GAM-3] the sample game uploaded as one .zip through the UI is unpacked, index marked, generated, and draws in the frame', async ({
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
      description: 'The sample game, zipped by a test',
    });

    await openGameFiles(page, admin, game);
    await page
      .locator('#zip-input')
      .setInputFiles({ name: 'star-catcher.zip', mimeType: 'application/zip', buffer: await sampleZip() });
    await expect(successToast(page, messages.uploaded)).toBeVisible({ timeout: 30_000 });
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: `Uploaded ${sampleFiles.length} files from star-catcher.zip` }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: `Game Files (${sampleFiles.length})` })).toBeVisible();
    // Unpacked without its top folder, and the index marked by the server.
    const paths = (await filesOf(api, game.id)).map((f) => f.path);
    expect(paths).toContain('game/index.html');
    expect(paths).toContain('lib/engine.js');
    await expect(fileRow(page, 'game/index.html').getByText('Index', { exact: true })).toBeVisible();

    // No splash is guessed; the images show as thumbnails (the original view) to pick one from.
    expect((await gameById(api, game.id)).imagePath).toBe('');
    const splash = fileRow(page, 'assets/img/splash.png');
    const thumb = splash.getByRole('img', { name: 'Preview of assets/img/splash.png' });
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await rowButton(splash, 'Mark splash').click();
    await expect(successToast(page, messages.splashUpdated)).toBeVisible();

    await page.getByRole('link', { name: 'Back to games' }).click();
    // Other tests add games meanwhile: the list is searched for this one.
    await page.getByRole('searchbox', { name: 'Search by name' }).fill(game.name);
    const row = gameRow(page, game.name);
    // The games list shows each game's splash.
    const splashThumb = row.getByRole('img', { name: `Splash of ${game.name}` });
    await expect
      .poll(() => splashThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await rowButton(row, 'Gen.').click();
    await expect(row.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible({ timeout: 60_000 });
    expect((await gameById(api, game.id)).gameStatusTypeId).toBe(GameStatus.Ready);

    await rowButton(row, 'Play').click();
    const src = (await page.locator('iframe').getAttribute('src')) ?? '';
    expect(src).toMatch(/\/p\/[^/]+\/game\/index\.html$/);
    const frame = await gameFrame(page);
    await expect
      .poll(async () => (await canvasPaint(frame)).colours, {
        timeout: 30_000,
        message: 'distinct canvas colours',
      })
      .toBeGreaterThan(500);
  });

  test('[GF-1] a zip the server refuses shows its error and stores nothing', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openWithToken(page, admin.token, `/games/game-files?gameId=${game.id}`);
    await page.locator('#zip-input').setInputFiles({
      name: 'broken.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from('not a zip at all'),
    });
    const errors = page.getByRole('alert').filter({ hasText: 'Not uploaded:' });
    await expect(errors).toContainText('not a readable .zip');
    await expect(page.getByRole('status').filter({ hasText: 'broken.zip was not uploaded' })).toBeVisible();
    expect(await filesOf(api, game.id)).toEqual([]);
  });
});
