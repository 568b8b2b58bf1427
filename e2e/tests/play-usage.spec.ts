import { GameStatus, type FileUsage, type Game } from '@reskin/contract';
import {
  test,
  expect,
  fileByPath,
  markIndex,
  openGameFiles,
  openWithToken,
  png,
  uploadFiles,
  waitForStatus,
  type FilePayload,
} from '../fixtures/games';
import { gameFrame } from '../fixtures/play';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';
import { allCardPaths, workbenchUrl } from '../fixtures/workbench';

/** The e2e server's PLAY_USAGE_START_SECONDS (playwright.config.ts). */
const startWindowSeconds = 5;

/**
 * A small game of ten images: its start screen shows three, and a click on Next two more; the other five are
 * never loaded (source art a real game folder keeps).
 */
function tenImageGame(): FilePayload[] {
  const page = `<!doctype html>
<title>ten images</title>
<div id="start"></div><button id="next" type="button">Next</button><div id="later"></div>
<script src="game.js"></script>`;
  const script = `
function show(where, names) {
  for (const name of names) {
    const image = new Image();
    image.alt = name;
    image.onload = () => image.setAttribute('data-loaded', 'yes');
    image.src = 'img/' + name + '.png';
    document.getElementById(where).append(image);
  }
}
show('start', ['pic0', 'pic1', 'pic2']);
document.getElementById('next').addEventListener('click', () => show('later', ['pic3', 'pic4']));
`;
  return [
    { path: 'index.html', mimeType: 'text/html', buffer: Buffer.from(page) },
    { path: 'game.js', mimeType: 'text/javascript', buffer: Buffer.from(script) },
    ...Array.from({ length: 10 }, (_, i) => ({
      path: `img/pic${i}.png`,
      mimeType: 'image/png',
      buffer: png(24, 16, i + 1),
    })),
  ];
}

test('a play records which files the game loads: the workbench shows 3 at start, 5 loaded in play, 5 never loaded yet, and the game files screen filters by it', async ({
  page,
  api,
  makeGame,
  makeUser,
}) => {
  test.setTimeout(180_000);
  const game: Game = await makeGame({ name: `Usage ${Date.now()}` });
  await uploadFiles(api, game.id, tenImageGame());
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'index.html')).fileId);
  expect((await api.get(`/games/${game.id}/generate`, await api.asAdmin())).status()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const artist = await makeUser();
  const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
  try {
    const version = await createVersion(api, artist.token, userGame, 'usage');

    // The artist plays the original in the workbench; the server's clock when it sent the game's document.
    const documentSent = page.waitForResponse((response) =>
      new URL(response.url()).pathname.endsWith('/index.html'),
    );
    await openWithToken(page, artist.token, workbenchUrl(version, 'play-original'));
    const startedAt = Date.parse((await (await documentSent).allHeaders()).date!);
    const frame = await gameFrame(page, `${game.name}: Play Original Game`);
    await expect(frame.locator('#start img[data-loaded="yes"]')).toHaveCount(3, { timeout: 30_000 });

    // The click comes after the start window, by the server's own clock (its Date header, to the second).
    await expect
      .poll(async () => Date.parse((await page.request.get('/api/health')).headers().date!) - startedAt, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual((startWindowSeconds + 1) * 1000);
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect(frame.locator('#later img[data-loaded="yes"]')).toHaveCount(2);

    // The server writes what it counted twice a second: wait for the record, then open the Files tab (whose
    // previews of every image are no play) once.
    await expect
      .poll(
        async () => {
          const response = await api.get(`/games/${game.id}/usage`, artist.token);
          const images = ((await response.json()) as FileUsage[]).filter((file) =>
            file.path.startsWith('img/'),
          );
          return [
            images.filter((file) => file.loads > 0).length,
            images.filter((file) => file.atStart).length,
          ];
        },
        { timeout: 30_000 },
      )
      .toEqual([5, 3]);
    await openWithToken(page, artist.token, workbenchUrl(version, 'files'));
    const filter = page.getByRole('combobox', { name: 'Usage in play' });
    await expect(filter.locator('option')).toHaveText([
      'All files (10)',
      'Loaded in play (5)',
      'At start (3)',
      'Never loaded yet (5)',
    ]);
    const cards = page.getByRole('region').filter({ has: page.locator('.usage-badge') });
    await expect(cards.first()).toBeVisible();
    // Only the cards in view are in the page (decision 0041): all ten are reached by scrolling.
    expect(await allCardPaths(page)).toEqual(Array.from({ length: 10 }, (_, i) => `img/pic${i}.png`).sort());
    await filter.selectOption({ label: 'At start (3)' });
    await expect(cards).toHaveCount(3);
    for (const name of ['pic0', 'pic1', 'pic2']) {
      await expect(page.getByRole('region', { name: `img/${name}.png` }).locator('.usage-badge')).toHaveText(
        'At start · 1 load',
      );
    }
    await filter.selectOption({ label: 'Loaded in play (5)' });
    await expect(cards).toHaveCount(5);
    await expect(page.getByRole('region', { name: 'img/pic4.png' }).locator('.usage-badge')).toHaveText(
      'Loaded in play · 1 load',
    );
    await filter.selectOption({ label: 'Never loaded yet (5)' });
    await expect(cards).toHaveCount(5);
    await expect(page.getByRole('region', { name: 'img/pic9.png' }).locator('.usage-badge')).toHaveText(
      'Never loaded yet',
    );
    // Most loaded first: the five loaded ones lead.
    await filter.selectOption({ label: 'All files (10)' });
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Most loaded in play' });
    await expect(cards.first().locator('.usage-badge')).not.toHaveText('Never loaded yet');
    await expect(cards.nth(5).locator('.usage-badge')).toHaveText('Never loaded yet');

    // The admin's game files screen filters on the server: the page, the script and three images at start.
    await openGameFiles(page, { token: await api.asAdmin() }, game);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(12);
    await page.getByRole('combobox', { name: 'Usage in play' }).selectOption({ label: 'At start' });
    await expect(rows).toHaveCount(5);
    await expect(page).toHaveURL(/usage=atStart/);
    await page.getByRole('combobox', { name: 'Usage in play' }).selectOption({ label: 'Never loaded yet' });
    await expect(rows).toHaveCount(5);
    await expect(rows.locator('.usage-badge')).toHaveText(
      Array.from({ length: 5 }, () => 'Never loaded yet'),
    );
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});
