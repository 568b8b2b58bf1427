import { GameStatus, RoleType, type Game } from '@reskin/contract';
import {
  test,
  expect,
  fileByPath,
  gameById,
  markIndex,
  openWithToken,
  png,
  uploadFiles,
  waitForStatus,
  type FilePayload,
} from '../fixtures/games';
import { gameFrame, playRequest } from '../fixtures/play';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';
import { workbenchUrl } from '../fixtures/workbench';

/**
 * A game that shows img/a.png and asks for it again every 200 ms (as a game reloading its art would), counting
 * the loads and the errors on its body.
 */
function reloadingGame(): FilePayload[] {
  const page = `<!doctype html>
<title>live</title>
<img id="art" alt="art">
<script src="game.js"></script>`;
  const script = `
let loads = 0;
let errors = 0;
const art = document.getElementById('art');
art.onload = () => { loads++; document.body.dataset.loads = String(loads); };
art.onerror = () => { errors++; document.body.dataset.errors = String(errors); };
document.body.dataset.errors = '0';
const show = () => { art.src = 'img/a.png?at=' + Date.now(); };
show();
setInterval(show, 200);
`;
  return [
    { path: 'index.html', mimeType: 'text/html', buffer: Buffer.from(page) },
    { path: 'game.js', mimeType: 'text/javascript', buffer: Buffer.from(script) },
    { path: 'img/a.png', mimeType: 'image/png', buffer: png(40, 30, 1) },
    { path: 'img/b.png', mimeType: 'image/png', buffer: png(20, 20, 2) },
  ];
}

test('[GAM-4][GAM-3] an artist plays a Ready game while the admin replaces an image and adds files: play never breaks, the game stays Ready, the new copies are served once made', async ({
  page,
  api,
  makeGame,
  makeUser,
}) => {
  test.setTimeout(120_000);
  const game: Game = await makeGame({ name: `Live ${Date.now()}` });
  await uploadFiles(api, game.id, reloadingGame());
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'index.html')).fileId);
  expect((await api.get(`/games/${game.id}/generate`, await api.asAdmin())).status()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const artist = await makeUser(RoleType.User);
  const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
  const statuses = new Set<number>();
  const statusNow = async () => {
    const now = await gameById(api, game.id);
    statuses.add(now.gameStatusTypeId);
    return now;
  };
  try {
    const version = await createVersion(api, artist.token, userGame, 'live');
    const conflicts: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 409) conflicts.push(response.url());
    });
    await openWithToken(page, artist.token, workbenchUrl(version, 'play-original'));
    const frame = await gameFrame(page, `${game.name}: Play Original Game`);
    await expect
      .poll(() => frame.evaluate(() => Number(document.body.dataset.loads ?? 0)))
      .toBeGreaterThan(2);
    const playUrl = frame.url();
    const artUrl = playUrl.replace(/index\.html$/, 'img/a.png');
    const before = await playRequest(page, artUrl);
    expect(before.status()).toBe(200);
    const beforeTag = before.headers().etag;

    // The admin replaces the image and adds two files, through the API, while the game plays.
    await uploadFiles(api, game.id, [{ path: 'img/a.png', mimeType: 'image/png', buffer: png(40, 30, 77) }]);
    expect((await statusNow()).gameStatusTypeId).toBe(GameStatus.Ready);
    await uploadFiles(api, game.id, [
      { path: 'img/c.png', mimeType: 'image/png', buffer: png(40, 30, 5) },
      { path: 'level2.json', mimeType: 'application/json', buffer: Buffer.from('{"level":2}') },
    ]);
    expect((await statusNow()).gameStatusTypeId).toBe(GameStatus.Ready);
    const loadsAtChange = await frame.evaluate(() => Number(document.body.dataset.loads ?? 0));

    // Within the copies' generation the replaced image's new watermarked copy is served.
    await expect
      .poll(
        async () => {
          await statusNow();
          const answer = await playRequest(page, artUrl);
          return answer.status() === 200 && answer.headers().etag !== beforeTag;
        },
        { timeout: 60_000, message: 'the new watermarked copy of img/a.png is served' },
      )
      .toBe(true);
    const after = await playRequest(page, artUrl);
    expect((await after.body()).equals(await before.body())).toBe(false);
    // Every copy is made, and the game never left Ready.
    await expect
      .poll(async () => {
        const now = await statusNow();
        return [now.copiesCurrent, now.copiesTotal];
      })
      .toEqual([3, 3]);
    expect([...statuses]).toEqual([GameStatus.Ready]);
    // The added image has its own watermarked copy (not a blank: a blank of 40 x 30 is a few dozen bytes).
    const added = await playRequest(page, playUrl.replace(/index\.html$/, 'img/c.png'));
    expect(added.status()).toBe(200);
    expect((await added.body()).length).toBeGreaterThan(500);

    // The play frame never broke: still the game's page, still reloading its art, no error, no 409.
    await expect
      .poll(() => frame.evaluate(() => Number(document.body.dataset.loads ?? 0)))
      .toBeGreaterThan(loadsAtChange + 2);
    expect(frame.url()).toBe(playUrl);
    expect(await frame.evaluate(() => document.body.dataset.errors)).toBe('0');
    await expect(page.getByText(/not ready/i)).toHaveCount(0);
    expect(conflicts).toEqual([]);
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});
