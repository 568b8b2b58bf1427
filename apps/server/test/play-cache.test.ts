import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GameStatus,
  RoleType,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import type { Config } from '../src/config';
import { variantKey } from '../src/lib/images/copy-keys';
import { playHeaders } from '../src/play/play-app';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';

/** How long the first app keeps a file lookup. */
const cacheMs = 30_000;

/** A test app with an admin, an artist assigned to a Ready game (index.html, engine.js, hero.png), and its files. */
async function playableGame(overrides: Partial<Config>) {
  const t = await createTestApp(overrides);
  const [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
  const created = (
    await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Cached', description: 'x', width: 480, height: 640 },
    })
  ).json<Game>();
  await uploadToGame(t, admin, created.id, [
    { path: 'index.html', content: '<!doctype html><script src="engine.js"></script>' },
    { path: 'engine.js', content: 'window.engine = 1;' },
    { path: 'hero.png', content: await solidPng(32, 24, 'orange') },
  ]);
  const listed = (await call(t, 'GET', `/api/games/${created.id}/files`, { token: admin.token })).json<
    GameFile[]
  >();
  await call(
    t,
    'PATCH',
    `/api/games/${created.id}/files/${listed.find((f) => f.path === 'index.html')!.fileId}/index`,
    { token: admin.token },
  );
  await call(t, 'GET', `/api/games/${created.id}/generate`, { token: admin.token });
  for (let i = 0; ; i++) {
    if (
      (await call(t, 'GET', `/api/games/${created.id}`, { token: admin.token })).json<Game>()
        .gameStatusTypeId === GameStatus.Ready
    )
      break;
    if (i === 200) throw new Error('not ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const assigned = await call(t, 'POST', '/api/user-games', {
    token: admin.token,
    payload: { userId: artist.id, gameId: created.id, userGameTypeId: 1, jobPrice: 10 },
  });
  expect(assigned.statusCode, assigned.body).toBe(201);
  return { t, admin, artist, game: created, userGame: assigned.json<UserGame>(), files: listed };
}

async function uploadToGame(
  t: TestApp,
  admin: TestUser,
  gameId: number,
  files: { path: string; content: Buffer | string }[],
) {
  const body = new FormData();
  for (const file of files) {
    body.append('fullPath', file.path);
    body.append('file', new Blob([file.content]), file.path);
  }
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/api/game/upload/${gameId}`,
    headers: { authorization: `Bearer ${admin.token}` },
    payload: body,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
}

/** The path on the play origin of `file` under a play URL's root. */
const under = (url: string, file: string) => new URL(url).pathname.replace(/[^/]*$/, file);

describe(`the play origin's file lookups, kept ${cacheMs / 1000} s (PLAY_FILE_CACHE_SECONDS), on ${testDb}`, () => {
  let s: Awaited<ReturnType<typeof playableGame>>;
  const get = (url: string, headers: Record<string, string> = {}) =>
    s.t.playApp.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    s = await playableGame({ playFileCacheMs: cacheMs });
  });
  afterAll(async () => s.t.close());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("shows another server's change once the lookup's time is over, and this server's own change at once", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const url = under(
      (await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.admin.token })).json<GamePath>()
        .orjFile,
      'extra.js',
    );
    expect((await get(url)).statusCode).toBe(404);
    // Another server records a new file of the game (here: straight into the database, with engine.js's object).
    const { id: _id, ...engine } = await s.t.database.db
      .selectFrom('gameFiles')
      .selectAll()
      .where('gameId', '=', s.game.id)
      .where('path', '=', 'engine.js')
      .executeTakeFirstOrThrow();
    await s.t.database.db
      .insertInto('gameFiles')
      .values({ ...engine, fileId: 99, path: 'extra.js' })
      .execute();
    expect((await get(url)).statusCode).toBe(404);
    vi.setSystemTime(Date.now() + cacheMs + 1);
    expect((await get(url)).body).toBe('window.engine = 1;');

    // A version's first replacement of a file, made through this server, shows at once.
    const version = (
      await call(s.t, 'POST', '/api/game-versions', {
        token: s.artist.token,
        payload: {
          name: 'Mine',
          description: 'My new look',
          gameId: s.game.id,
          userGamesId: s.userGame.id,
          isLocked: false,
        },
      })
    ).json<GameVersion>();
    const paths = (
      await call(s.t, 'GET', `/api/game-versions/path/${version.id}/${s.game.id}`, { token: s.artist.token })
    ).json<GamePath>();
    const hero = under(paths.orjFile, 'hero.png');
    const watermarked = await get(hero);
    expect(watermarked.statusCode).toBe(200);
    const replacement = await solidPng(32, 24, 'purple');
    const body = new FormData();
    body.append('fullPath', 'hero.png');
    body.append('file', new Blob([replacement]), 'hero.png');
    const heroFile = s.files.find((f) => f.path === 'hero.png')!;
    const uploaded = await s.t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${heroFile.fileId}`,
      headers: { authorization: `Bearer ${s.artist.token}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect((await get(hero)).rawPayload.equals(replacement)).toBe(true);
    // Restore original: the watermarked copy again, at once.
    expect(
      (
        await call(s.t, 'DELETE', `/api/game-versions/${version.id}/files/${heroFile.fileId}`, {
          token: s.artist.token,
        })
      ).statusCode,
    ).toBe(204);
    expect((await get(hero)).rawPayload.equals(watermarked.rawPayload)).toBe(true);
  });

  it('answers If-None-Match with 304 without reading storage', async () => {
    const url = under(
      (await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.artist.token })).json<GamePath>()
        .wtmFile,
      'hero.png',
    );
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const reads = [vi.spyOn(LocalDiskStorage.prototype, 'get'), vi.spyOn(LocalDiskStorage.prototype, 'stat')];
    const again = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    for (const read of reads) expect(read).not.toHaveBeenCalled();
  });

  it('serves a replaced game file at once, and answers 404 for a deleted one at once (their old objects are gone)', async () => {
    // Last: an upload takes the game out of Ready until it is generated again.
    const url = under(
      (await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.admin.token })).json<GamePath>()
        .orjFile,
      'engine.js',
    );
    const before = await get(url);
    expect(before.body).toBe('window.engine = 1;');
    await uploadToGame(s.t, s.admin, s.game.id, [{ path: 'engine.js', content: 'window.engine = 2;' }]);
    const after = await get(url);
    expect(after.body).toBe('window.engine = 2;');
    expect(after.headers.etag).not.toBe(before.headers.etag);

    const engine = s.files.find((f) => f.path === 'engine.js')!;
    expect(
      (await call(s.t, 'DELETE', `/api/games/${s.game.id}/files/${engine.fileId}`, { token: s.admin.token }))
        .statusCode,
    ).toBeLessThan(300);
    const gone = await get(url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: { statusCode: 404, message: 'No such file in this game.' } });
  });
});

describe(`the play origin behind nginx (PLAY_ACCEL_REDIRECT) on ${testDb}`, () => {
  let s: Awaited<ReturnType<typeof playableGame>>;
  let keys: Map<string, string>;
  const get = (url: string, headers: Record<string, string> = {}) =>
    s.t.playApp.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    s = await playableGame({ playAccelRedirect: '/_stored/' });
    const rows = await s.t.database.db
      .selectFrom('gameFiles')
      .select(['path', 'storageKey'])
      .where('gameId', '=', s.game.id)
      .execute();
    keys = new Map(rows.map((row) => [row.path, row.storageKey]));
  });
  afterAll(async () => s.t.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers a checked file with X-Accel-Redirect to its stored key and no body; nginx reads the disk, not the app', async () => {
    const reads = [vi.spyOn(LocalDiskStorage.prototype, 'get'), vi.spyOn(LocalDiskStorage.prototype, 'stat')];
    const adminRoot = (
      await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.admin.token })
    ).json<GamePath>().orjFile;
    const script = await get(under(adminRoot, 'engine.js'), { range: 'bytes=0-3' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['x-accel-redirect']).toBe(`/_stored/${keys.get('engine.js')}`);
    expect(script.rawPayload.length).toBe(0);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers.etag).toBeTruthy();
    for (const [header, value] of Object.entries(playHeaders))
      expect(script.headers[header.toLowerCase()]).toBe(value);

    // The artist's view of an image is its watermarked copy.
    const artistRoot = (
      await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.artist.token })
    ).json<GamePath>().wtmFile;
    const image = await get(under(artistRoot, 'hero.png'));
    expect(image.headers['x-accel-redirect']).toBe(
      `/_stored/${variantKey(keys.get('hero.png')!, 'watermark')}`,
    );
    expect(image.headers['content-type']).toBe('image/png');
    for (const read of reads) expect(read).not.toHaveBeenCalled();

    const unchanged = await get(under(artistRoot, 'hero.png'), {
      'if-none-match': String(image.headers.etag),
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.headers['x-accel-redirect']).toBeUndefined();
  });

  it('sends a compressed answer itself (nginx would compress a pre-compressed build again), X-Accel-Redirect for the rest', async () => {
    const adminRoot = (
      await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.admin.token })
    ).json<GamePath>().orjFile;
    const compressed = await get(under(adminRoot, 'engine.js'), { 'accept-encoding': 'gzip' });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['x-accel-redirect']).toBeUndefined();
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(compressed.rawPayload).toString()).toBe('window.engine = 1;');
    const image = await get(under(adminRoot, 'hero.png'), { 'accept-encoding': 'gzip' });
    expect(image.headers['x-accel-redirect']).toBe(`/_stored/${keys.get('hero.png')}`);
  });

  it('still refuses with the envelope, and never redirects a refusal', async () => {
    const root = (
      await call(s.t, 'GET', `/api/games/${s.game.id}/path/`, { token: s.artist.token })
    ).json<GamePath>().wtmFile;
    const token = new URL(root).pathname.split('/')[2]!;
    const forged = await get(under(root, 'engine.js').replace(token, `${token.slice(0, -2)}xx`));
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ error: { statusCode: 403 } });
    const missing = await get(under(root, 'nothing.js'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      error: { statusCode: 404, message: 'No such file in this game.' },
    });
    const outside = await get(under(root, '..%2f..%2fjwt-secret'));
    expect(outside.statusCode).toBe(404);
    for (const refusal of [forged, missing, outside])
      expect(refusal.headers['x-accel-redirect']).toBeUndefined();
  });
});
