import { randomBytes, randomInt } from 'node:crypto';
import type { Request } from '@playwright/test';
import { GameStatus, type Game } from '@reskin/contract';
import {
  test,
  expect,
  fileByPath,
  markIndex,
  openWithToken,
  png,
  rgbaPng,
  uploadFiles,
  waitForStatus,
  type FilePayload,
} from '../fixtures/games';
import { openPlayTab } from '../fixtures/play';
import { createUserGame, createVersion, deleteUserGame, uploadPng } from '../fixtures/versions';
import { workbenchUrl } from '../fixtures/workbench';

/**
 * A game of 4 MB that does not compress (random bytes, as a real build's assets mostly are once compressed): a
 * classic script, data it fetches, three images (watermarked copies, the same in the version and the original).
 */
function bigGame(): FilePayload[] {
  const page = `<!doctype html>
<title>big game</title>
<div id="images"></div>
<script src="lib/engine.js"></script>`;
  const engine = `window.payload = "${randomBytes(1536 * 1024).toString('base64')}";
fetch('data/level.bin').then((response) => response.arrayBuffer()).then((bytes) => {
  let loaded = 0;
  for (const name of ['a', 'b', 'c']) {
    const image = new Image();
    image.onload = () => { if (++loaded === 3) document.body.dataset.ready = String(bytes.byteLength + window.payload.length); };
    image.src = 'img/' + name + '.png';
    document.getElementById('images').append(image);
  }
});
`;
  return [
    { path: 'index.html', mimeType: 'text/html', buffer: Buffer.from(page) },
    { path: 'lib/engine.js', mimeType: 'text/javascript', buffer: Buffer.from(engine) },
    { path: 'data/level.bin', mimeType: 'application/octet-stream', buffer: randomBytes(1024 * 1024) },
    ...['a', 'b', 'c'].map((name, i) => ({
      path: `img/${name}.png`,
      mimeType: 'image/png',
      buffer: png(64, 48, i + 3),
    })),
  ];
}

test('switching from Play Your Version to Play Original Game transfers under 1 MB when the game files are the same in both', async ({
  page,
  api,
  makeGame,
  makeUser,
}) => {
  test.setTimeout(180_000);
  const game: Game = await makeGame({ name: `Shared ${Date.now()}` });
  await uploadFiles(api, game.id, bigGame());
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'index.html')).fileId);
  expect((await api.get(`/games/${game.id}/generate`, await api.asAdmin())).status()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const artist = await makeUser();
  const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
  try {
    const version = await createVersion(api, artist.token, userGame, 'shared');

    // Bytes the play origin sent (bodies as they came over the wire, and headers), counted per request finished.
    let bytes = 0;
    const counted: Promise<void>[] = [];
    const count = (request: Request) => {
      if (!new URL(request.url()).hostname.endsWith('.localhost')) return;
      counted.push(
        request.sizes().then((sizes) => void (bytes += sizes.responseBodySize + sizes.responseHeadersSize)),
      );
    };
    page.on('requestfinished', count);
    const transferred = async () => {
      await Promise.all(counted);
      const sent = bytes;
      bytes = 0;
      return sent;
    };

    await openWithToken(page, artist.token, workbenchUrl(version, 'play-version'));
    const own = await openPlayTab(page, game.name, 'Play Your Version');
    await expect(own.locator('body[data-ready]')).toBeAttached({ timeout: 30_000 });
    const first = await transferred();
    // The first play downloads the game: its script compresses to about three quarters, the rest not at all.
    expect(first).toBeGreaterThan(2.5 * 1024 * 1024);

    const original = await openPlayTab(page, game.name, 'Play Original Game');
    await expect(original.locator('body[data-ready]')).toBeAttached({ timeout: 30_000 });
    // The same game runs, from the same script and data (1 MB of data, 2 MB of script text), with its images...
    expect(await original.evaluate(() => document.body.dataset.ready)).toBe(
      String(1024 * 1024 + 2 * 1024 * 1024),
    );
    expect(
      await original.evaluate(() => Array.from(document.images).every((image) => image.naturalWidth === 64)),
    ).toBe(true);
    // ...and the switch revalidates instead of downloading it again.
    const second = await transferred();
    expect(second).toBeLessThan(1024 * 1024);
    test.info().annotations.push({
      type: 'bytes',
      description: `first play ${first} B, switch to Play Original Game ${second} B`,
    });
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});

/** A game whose script fetches its data, then draws its one image on a canvas and says the centre's colour. */
function drawingGame(): FilePayload[] {
  const page = `<!doctype html>
<title>drawing game</title>
<canvas width="160" height="160"></canvas>
<script src="lib/engine.js"></script>`;
  // Each over 64 KB: smaller files are answered in place, never redirected.
  const engine = `// ${'a build of some size '.repeat(4000)}
fetch('data/level.bin').then((response) => response.arrayBuffer()).then(() => {
  const image = new Image();
  image.onload = () => {
    const context = document.querySelector('canvas').getContext('2d');
    context.drawImage(image, 0, 0);
    document.body.dataset.pixel = Array.from(context.getImageData(80, 80, 1, 1).data.slice(0, 3)).join(',');
  };
  image.src = 'img/hero.png';
});
`;
  return [
    { path: 'index.html', mimeType: 'text/html', buffer: Buffer.from(page) },
    { path: 'lib/engine.js', mimeType: 'text/javascript', buffer: Buffer.from(engine) },
    { path: 'data/level.bin', mimeType: 'application/octet-stream', buffer: randomBytes(100 * 1024) },
    {
      path: 'img/hero.png',
      mimeType: 'image/png',
      buffer: rgbaPng(160, 160, () => [randomInt(256), randomInt(256), randomInt(256)]),
    },
  ];
}

test('Play Your Version again: the browser keeps the redirects of the script and data, and an image the artist replaced meanwhile shows at once', async ({
  page,
  api,
  makeGame,
  makeUser,
}) => {
  test.setTimeout(180_000);
  const game: Game = await makeGame({ name: `Kept ${Date.now()}` });
  await uploadFiles(api, game.id, drawingGame());
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'index.html')).fileId);
  expect((await api.get(`/games/${game.id}/generate`, await api.asAdmin())).status()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const artist = await makeUser();
  const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
  try {
    const version = await createVersion(api, artist.token, userGame, 'kept');
    // The play origin's answers to the version's own link, by file: status and request id (a kept answer has the id
    // of the request that made it: the browser did not ask again).
    const answers: { path: string; status: number; id: string | null }[] = [];
    page.on('response', async (response) => {
      const match = /\/p\/[^/]+\/(lib\/engine\.js|data\/level\.bin|img\/hero\.png)$/.exec(response.url());
      if (match)
        answers.push({
          path: match[1]!,
          status: response.status(),
          id: await response.headerValue('x-request-id'),
        });
    });
    const played = async () => {
      const frame = await openPlayTab(page, game.name, 'Play Your Version');
      await expect(frame.locator('body[data-pixel]')).toBeAttached({ timeout: 30_000 });
      const pixel = await frame.evaluate(() => document.body.dataset.pixel);
      const seen = answers.splice(0);
      return { pixel, answer: (path: string) => seen.find((answer) => answer.path === path) };
    };

    await openWithToken(page, artist.token, workbenchUrl(version, 'files'));
    const first = await played();
    expect(first.pixel).not.toBe('200,40,90');
    for (const path of ['lib/engine.js', 'data/level.bin', 'img/hero.png'])
      expect(first.answer(path)?.status, path).toBe(302);

    await uploadPng(api, artist.token, version.id, await fileByPath(api, game.id, 'img/hero.png'));
    await page.getByRole('tab', { name: 'Files', exact: true }).click();
    const second = await played();
    // The replaced image: asked for again (its redirect was not kept) and answered in place, the version's own.
    expect(second.pixel).toBe('200,40,90');
    expect(second.answer('img/hero.png')?.status).toBe(200);
    // The script and the data: the same redirects, kept by the browser.
    for (const path of ['lib/engine.js', 'data/level.bin']) {
      expect(second.answer(path)?.status, path).toBe(302);
      expect(second.answer(path)?.id, path).toBe(first.answer(path)?.id);
    }
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});
