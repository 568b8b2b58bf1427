import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RoleType, type FileUsage, type Game, type GamePath } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';
import { readyGame } from './support/ready-game';

/** Ten images and the page that shows them. */
async function tenImageGame(t: TestApp, admin: TestUser, name: string) {
  const images = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => ({
      path: `img/pic${i}.png`,
      content: await solidPng(8, 8, i % 2 ? 'red' : 'blue'),
    })),
  );
  return readyGame(
    t,
    admin,
    name,
    [{ path: 'index.html', content: '<!doctype html><p>ten</p>' }, ...images],
    'index.html',
  );
}

const playPath = (url: string) => new URL(url).pathname;

describe(`the play usage record on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let stranger: TestUser;
  let demo: TestUser;
  let game: Game;
  let root: string;
  let skeletonRoot: string;

  const usage = async (token: string, gameId = game.id) =>
    call(t, 'GET', `/api/games/${gameId}/usage`, { token });
  const usageOf = async (gameId = game.id) => {
    const response = await usage(admin.token, gameId);
    expect(response.statusCode, response.body).toBe(200);
    return new Map(response.json<FileUsage[]>().map((file) => [file.path, file]));
  };
  const play = (root: string, path: string, headers: Record<string, string> = {}) =>
    t.playApp.inject({ method: 'GET', url: `${root}${path}`, headers });

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist, stranger, demo] = [
      await createUser(t, RoleType.Admin),
      await createUser(t),
      await createUser(t),
      await createUser(t, RoleType.Demo),
    ];
    ({ game } = await tenImageGame(t, admin, 'Usage'));
    const now = nowIso();
    for (const user of [artist, demo]) {
      await t.database.db
        .insertInto('userGames')
        .values({
          userId: user.id,
          gameId: game.id,
          userGameTypeId: 1,
          jobPrice: 1,
          isActive: 1,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
    const paths = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
    ).json<GamePath>();
    root = playPath(paths.rootPath);
    skeletonRoot = playPath(paths.emtFile).replace(/index\.html$/, '');
  });
  afterAll(async () => t.close());
  afterEach(() => vi.useRealTimers());

  it('counts per file what plays load, in any view: at start within the window of the document, later not; files never loaded show 0', async () => {
    expect(
      [...(await usageOf()).values()].every(
        (file) => file.loads === 0 && file.firstSeenAt === null && !file.atStart,
      ),
    ).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Now (a later time would have expired the play links), held still.
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    vi.setSystemTime(start);
    expect((await play(root, 'index.html')).statusCode).toBe(200);
    for (const i of [0, 1, 2]) expect((await play(root, `img/pic${i}.png`)).statusCode).toBe(200);
    // 9.9 s into the play: still at start; 10 s and later: loaded in play, not at start.
    vi.setSystemTime(start.getTime() + 9_900);
    expect((await play(root, 'img/pic2.png')).statusCode).toBe(200);
    vi.setSystemTime(start.getTime() + 10_000);
    for (const i of [3, 4]) expect((await play(root, `img/pic${i}.png`)).statusCode).toBe(200);
    // Another view of the same game counts for the same files; a revalidation (304) is a load too.
    const etag = (await play(skeletonRoot, 'img/pic3.png')).headers.etag as string;
    expect((await play(skeletonRoot, 'img/pic3.png', { 'if-none-match': etag })).statusCode).toBe(304);
    // The app's previews of a game's images (another site's requests for images) are no play; a frame's document starts one.
    expect(
      (await play(root, 'img/pic9.png', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await play(root, 'img/pic8.png', { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'image' }))
        .statusCode,
    ).toBe(200);
    // Unknown paths are no files.
    expect((await play(root, 'img/nothing.png')).statusCode).toBe(404);
    await t.playUsage!.flush();

    const files = await usageOf();
    expect(files.get('index.html')).toMatchObject({
      loads: 1,
      atStart: true,
      firstSeenAt: start.toISOString(),
    });
    expect(files.get('img/pic2.png')).toMatchObject({ loads: 2, atStart: true });
    expect(files.get('img/pic8.png')?.loads).toBe(0);
    // The skeleton link had not started here: its first request started its play, so pic3 came at its start too.
    expect(files.get('img/pic3.png')).toMatchObject({
      loads: 3,
      atStart: true,
      firstSeenAt: new Date(start.getTime() + 10_000).toISOString(),
    });
    expect(files.get('img/pic4.png')).toMatchObject({ loads: 1, atStart: false });
    const loaded = [...files.values()].filter((file) => file.loads > 0).map((file) => file.path);
    expect(loaded).toEqual([
      'img/pic0.png',
      'img/pic1.png',
      'img/pic2.png',
      'img/pic3.png',
      'img/pic4.png',
      'index.html',
    ]);
    expect(files.get('img/pic9.png')).toEqual({
      fileId: files.get('img/pic9.png')!.fileId,
      path: 'img/pic9.png',
      loads: 0,
      firstSeenAt: null,
      atStart: false,
    });

    // A reload asks for the document again: a new play starts, and what it loads at once is at start again.
    vi.setSystemTime(start.getTime() + 60_000);
    await play(root, 'index.html', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' });
    await play(root, 'img/pic4.png', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image' });
    await t.playUsage!.flush();
    expect((await usageOf()).get('img/pic4.png')).toMatchObject({ loads: 2, atStart: true });
  });

  it('keeps no personal data: per game file, a count, a count at start and a time', async () => {
    const rows = await t.database.db
      .selectFrom('fileUsage')
      .selectAll()
      .where('gameId', '=', game.id)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual(['fileId', 'firstSeenAt', 'gameId', 'loads', 'startLoads']);
  });

  it('answers the admin and the assigned artist; a demo account 403, another user and an unknown game 404, nobody 401', async () => {
    expect((await usage(admin.token)).statusCode).toBe(200);
    const own = await usage(artist.token);
    expect(own.statusCode).toBe(200);
    expect(own.json<FileUsage[]>()).toHaveLength(11);
    expect((await usage(demo.token)).statusCode).toBe(403);
    expect((await usage(stranger.token)).statusCode).toBe(404);
    expect((await usage(admin.token, 999_999)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/games/${game.id}/usage` })).statusCode).toBe(401);
  });

  it("sorts and filters the admin's file search by it: loaded in play, at start, never loaded yet", async () => {
    const search = async (body: object) => {
      const response = await call(t, 'POST', `/api/games/${game.id}/files/filter`, {
        token: admin.token,
        payload: { fields: ['path'], ...body },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ path: string }[]>().map((file) => file.path);
    };
    expect(await search({ where: { loads: { gt: 0 } }, order: 'path ASC' })).toEqual([
      'img/pic0.png',
      'img/pic1.png',
      'img/pic2.png',
      'img/pic3.png',
      'img/pic4.png',
      'index.html',
    ]);
    expect(await search({ where: { atStart: true }, order: 'path ASC' })).toEqual([
      'img/pic0.png',
      'img/pic1.png',
      'img/pic2.png',
      'img/pic3.png',
      'img/pic4.png',
      'index.html',
    ]);
    expect(await search({ where: { loads: 0 }, order: 'path ASC' })).toEqual([
      'img/pic5.png',
      'img/pic6.png',
      'img/pic7.png',
      'img/pic8.png',
      'img/pic9.png',
    ]);
    expect((await search({ order: 'loads DESC', limit: 2 }))[0]).toBe('img/pic3.png');
    expect(
      (
        await call(t, 'POST', `/api/games/${game.id}/files/filter`, {
          token: admin.token,
          payload: { where: { loads: 'many' } },
        })
      ).statusCode,
    ).toBe(400);
  });

  it("counts a file whose redirect the browser keeps where it is answered, the shared URL, once per request and at its play's start", async () => {
    const { game: scripted } = await readyGame(
      t,
      admin,
      'Kept redirects',
      [
        { path: 'index.html', content: '<!doctype html><script src="engine.js"></script>' },
        // Over 64 KB: a smaller file is answered in place, never redirected.
        { path: 'engine.js', content: `window.engine = 1;\n${'// a build of some size\n'.repeat(3000)}` },
      ],
      'index.html',
    );
    const scriptedRoot = playPath(
      (await call(t, 'GET', `/api/games/${scripted.id}/path/`, { token: admin.token })).json<GamePath>()
        .rootPath,
    );
    const frame = {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-dest': 'iframe',
      'sec-fetch-mode': 'navigate',
    };
    const script = {
      'sec-fetch-site': 'same-origin',
      'sec-fetch-dest': 'script',
      'sec-fetch-mode': 'no-cors',
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    vi.setSystemTime(start);
    expect((await play(scriptedRoot, 'index.html', frame)).statusCode).toBe(200);
    const redirect = await play(scriptedRoot, 'engine.js', script);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['cache-control']).toMatch(/^private, max-age=/);
    const shared = String(redirect.headers.location);
    expect((await play('', shared, script)).statusCode).toBe(200);
    // A minute later the game is played again: the browser sends the script's request to the kept shared URL.
    vi.setSystemTime(start.getTime() + 60_000);
    expect((await play(scriptedRoot, 'index.html', frame)).statusCode).toBe(200);
    expect((await play('', shared, script)).statusCode).toBe(200);
    // Past the start window (PLAY_USAGE_START_SECONDS) of that play: a load, not at start.
    vi.setSystemTime(start.getTime() + 60_000 + 20_000);
    expect((await play('', shared, script)).statusCode).toBe(200);
    await t.playUsage!.flush();

    const engine = (await usageOf(scripted.id)).get('engine.js')!;
    const [counted] = await t.database.db
      .selectFrom('fileUsage')
      .select(['loads', 'startLoads'])
      .where('gameId', '=', scripted.id)
      .where('fileId', '=', engine.fileId)
      .execute();
    // Three loads (the redirect itself is none), two of them at their play's start.
    expect(counted).toEqual({ loads: 3, startLoads: 2 });
  });

  it('drops the counts of a file deleted before they are written, and keeps the rest', async () => {
    const { game: other, files } = await tenImageGame(t, admin, 'Deleted meanwhile');
    const otherRoot = playPath(
      (await call(t, 'GET', `/api/games/${other.id}/path/`, { token: admin.token })).json<GamePath>()
        .rootPath,
    );
    await play(otherRoot, 'index.html');
    await play(otherRoot, 'img/pic0.png');
    await play(otherRoot, 'img/pic1.png');
    const deleted = files.find((file) => file.path === 'img/pic0.png')!;
    expect(
      (await call(t, 'DELETE', `/api/games/${other.id}/files/${deleted.fileId}`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    await t.playUsage!.flush();
    const after = await usageOf(other.id);
    expect(after.has('img/pic0.png')).toBe(false);
    expect(after.get('img/pic1.png')).toMatchObject({ loads: 1, atStart: true });
  });
});

describe(`with PLAY_USAGE=false nothing is counted, on ${testDb}`, () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('serves the game and writes no record', async () => {
    t = await createTestApp({ playUsage: { enabled: false, startWindowMs: 10_000, flushMs: 300_000 } });
    const admin = await createUser(t, RoleType.Admin);
    const { game } = await tenImageGame(t, admin, 'Off');
    const root = playPath(
      (await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })).json<GamePath>().rootPath,
    );
    expect(t.playUsage).toBeUndefined();
    expect((await t.playApp.inject({ method: 'GET', url: `${root}img/pic0.png` })).statusCode).toBe(200);
    expect(await t.database.db.selectFrom('fileUsage').selectAll().execute()).toEqual([]);
  });
});
