import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  playScreenPathList,
  type Game,
  type GameFile,
  type GamePath,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { truncatedImportSection, wasmWithMemory } from './support/wasm-samples';

const framework = Buffer.from('var unityFramework = function () { return 1; };\n'.repeat(40));
const pck = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 13) % 256));

/** Small games as the engines lay them out: only what detection reads matters. */
const games = {
  unity: {
    'index.html': '<!doctype html><script src="Build/x.loader.js"></script>',
    'Build/x.loader.js': 'function createUnityInstance() {}',
    'Build/x.framework.js.gz': gzipSync(framework),
  },
  godot: {
    'index.html': '<!doctype html><script src="index.js"></script>',
    'index.js': 'var Engine = function () {};',
    'index.wasm.gz': gzipSync(wasmWithMemory({ shared: false })),
    'index.pck.gz': gzipSync(pck),
  },
  threaded: {
    'index.html': '<!doctype html><script src="game.js"></script>',
    'game.js': 'var Module = {};',
    'game.wasm': wasmWithMemory({ shared: true }),
  },
  pthreadLoader: {
    'index.html': '<!doctype html><script src="game.js"></script>',
    'game.js': 'var Module = {}; var PThread = { unusedWorkers: [] };',
    'game.wasm': wasmWithMemory({ shared: false }),
  },
  bad: {
    'index.html': '<!doctype html><p>bad</p>',
    'a.wasm': '<!doctype html><title>404</title>',
    'b.wasm': truncatedImportSection(),
    'c.wasm.gz': 'this is not gzip',
    'Build/d.framework.js.gz': 'nor is this',
  },
} satisfies Record<string, Record<string, string | Buffer>>;

describe(`play settings: detection, the update route and the headers on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  const made: Record<string, Game> = {};
  const dist = mkdtempSync(join(tmpdir(), 'reskin-web-'));

  const get = (id: number) =>
    call(t, 'GET', `/api/games/${id}`, { token: admin.token }).then((r) => r.json<Game>());
  const patch = (game: Game, change: Record<string, unknown>) => {
    const { name, description, width, height, gameStatusTypeId, isActive } = game;
    return call(t, 'PATCH', `/api/games/${game.id}`, {
      token: admin.token,
      payload: { name, description, width, height, gameStatusTypeId, isActive, ...change },
    });
  };
  const upload = (id: number, files: Record<string, string | Buffer>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm(Object.entries(files).map(([path, content]) => ({ path, content }))),
    });
  /** The play origin's answer for a file of the game, as the admin (original) or the assigned artist. */
  const play = async (
    game: Game,
    path: string,
    user: TestUser = admin,
    headers: Record<string, string> = {},
  ) => {
    const paths = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: user.token })
    ).json<GamePath>();
    return t.playApp.inject({ method: 'GET', url: new URL(paths.rootPath + path).pathname, headers });
  };

  async function readyGame(kind: keyof typeof games): Promise<Game> {
    const created = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: `${kind} game`, description: 'x', width: 400, height: 400 },
      })
    ).json<Game>();
    const uploaded = await upload(created.id, games[kind]);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(
      (await call(t, 'GET', `/api/games/${created.id}/generate`, { token: admin.token })).statusCode,
    ).toBe(200);
    await t.generation.idle();
    const game = await get(created.id);
    expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
    return game;
  }

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await createTestApp({ webDistDir: dist });
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    for (const kind of Object.keys(games) as (keyof typeof games)[]) made[kind] = await readyGame(kind);
    const now = nowIso();
    await t.database.db
      .insertInto('userGames')
      .values(
        [made.threaded!, made.godot!].map((game) => ({
          userId: artist.id,
          gameId: game.id,
          userGameTypeId: 1,
          jobPrice: 1,
          isActive: 1 as const,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('a new game is automatic on both, and says what automatic decided for no files', async () => {
    const game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'empty', description: 'x', width: 400, height: 400 },
      })
    ).json<Game>();
    expect(game).toMatchObject({
      precompressed: 'auto',
      precompressedDecided: 'stored',
      isolated: 'auto',
      isolatedDecided: false,
    });
    expect(game.precompressedReason).toContain('No Unity loader');
    expect(game.isolatedReason).toContain('no WebAssembly module');
  });

  it('detects at upload: a Unity loader means encoded, anything else stored; a shared-memory import or a pthread loader means isolated', async () => {
    expect(made.unity).toMatchObject({ precompressedDecided: 'encoded', isolatedDecided: false });
    expect(made.unity!.precompressedReason).toContain('Build/x.loader.js is a Unity loader');
    expect(made.godot).toMatchObject({ precompressedDecided: 'stored', isolatedDecided: false });
    expect(made.godot!.precompressedReason).toContain('index.pck.gz');
    expect(made.threaded).toMatchObject({ precompressedDecided: 'stored', isolatedDecided: true });
    expect(made.threaded!.isolatedReason).toContain('game.wasm imports a shared memory (env.memory)');
    expect(made.pthreadLoader).toMatchObject({ isolatedDecided: true });
    expect(made.pthreadLoader!.isolatedReason).toContain('game.js');
  });

  it('bad files fall back to the defaults and say so, with a 200 upload (never a 5xx)', async () => {
    expect(made.bad).toMatchObject({ precompressedDecided: 'stored', isolatedDecided: false });
    expect(made.bad!.isolatedReason).toContain('a.wasm is not a readable WebAssembly module');
    expect(made.bad!.isolatedReason).toContain('b.wasm is not a readable WebAssembly module');
    expect(made.bad!.isolatedReason).toContain('c.wasm.gz is not gzip data');
    expect(made.bad!.precompressedReason).toContain('Build/d.framework.js.gz is not gzip data');
  });

  it('detects again when the files change: a deleted loader, a replaced module', async () => {
    const game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'changing', description: 'x', width: 400, height: 400 },
      })
    ).json<Game>();
    expect((await upload(game.id, games.unity)).statusCode).toBe(200);
    expect((await get(game.id)).precompressedDecided).toBe('encoded');
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const loader = files.find((file) => file.path === 'Build/x.loader.js')!;
    expect(
      (await call(t, 'DELETE', `/api/games/${game.id}/files/${loader.fileId}`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    // The framework is still real gzip and named like Unity's: still encoded, now for that reason.
    expect((await get(game.id)).precompressedReason).toContain(
      'Build/x.framework.js.gz is a Unity file compressed with gzip',
    );
    expect((await upload(game.id, { 'Build/x.framework.js.gz': 'plain text now' })).statusCode).toBe(200);
    expect(await get(game.id)).toMatchObject({ precompressedDecided: 'stored' });
    expect((await upload(game.id, { 'x.wasm': wasmWithMemory({ shared: true }) })).statusCode).toBe(200);
    expect(await get(game.id)).toMatchObject({ isolatedDecided: true });
  });

  it('the admin sets both through PATCH /games/{id}; left out they stay; a value outside the three is a 422', async () => {
    const game = made.pthreadLoader!;
    const set = await patch(game, { precompressed: 'encoded', isolated: 'off' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Game>()).toMatchObject({
      precompressed: 'encoded',
      isolated: 'off',
      isolatedDecided: true,
      precompressedDecided: 'stored',
    });
    const kept = await patch(await get(game.id), { name: 'renamed' });
    expect(kept.json<Game>()).toMatchObject({ name: 'renamed', precompressed: 'encoded', isolated: 'off' });
    for (const bad of [{ precompressed: 'maybe' }, { isolated: true }, { isolated: 'ON' }]) {
      const refused = await patch(game, bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(422);
      expect(errorOf(refused).details?.[0]?.path).toBe(`/${Object.keys(bad)[0]}`);
    }
    const back = await patch(await get(game.id), { precompressed: 'auto', isolated: 'auto' });
    expect(back.json<Game>()).toMatchObject({ precompressed: 'auto', isolated: 'auto' });
    // Only admins: the assigned artist is refused.
    expect(
      (
        await call(t, 'PATCH', `/api/games/${game.id}`, {
          token: artist.token,
          payload: { precompressed: 'stored' },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('the play origin sends .gz as stored for stored (application/gzip, no Content-Encoding) and encoded for encoded', async () => {
    const game = made.godot!;
    const stored = await play(game, 'index.pck.gz', admin, { 'accept-encoding': 'gzip, br' });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('application/gzip');
    expect(stored.headers['content-encoding']).toBeUndefined();
    expect(stored.rawPayload.equals(Buffer.from(games.godot['index.pck.gz']))).toBe(true);
    // As stored, a range is answered like any file.
    expect((await play(game, 'index.pck.gz', admin, { range: 'bytes=0-9' })).statusCode).toBe(206);

    expect((await patch(game, { precompressed: 'encoded' })).statusCode).toBe(200);
    const encoded = await play(game, 'index.pck.gz');
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(encoded.headers['content-type']).toBe('application/octet-stream');
    // A changed setting changes the ETag: no browser keeps the old headers through a 304.
    expect(encoded.headers.etag).not.toBe(stored.headers.etag);
    expect(
      (await play(game, 'index.pck.gz', admin, { 'if-none-match': String(stored.headers.etag) })).statusCode,
    ).toBe(200);

    // The Unity game on automatic: encoded; set to stored by hand: as stored.
    const unity = await play(made.unity!, 'Build/x.framework.js.gz');
    expect(unity.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-type': 'text/javascript; charset=utf-8',
    });
    expect((await patch(made.unity!, { precompressed: 'stored' })).statusCode).toBe(200);
    expect((await play(made.unity!, 'Build/x.framework.js.gz')).headers).toMatchObject({
      'content-type': 'application/gzip',
    });
    expect((await play(made.unity!, 'Build/x.framework.js.gz')).headers['content-encoding']).toBeUndefined();
    await patch(await get(made.unity!.id), { precompressed: 'auto' });
    await patch(await get(game.id), { precompressed: 'auto' });
  });

  it('the play origin sends COOP and COEP on every file of an isolated game, for every view, and on a 304; none otherwise', async () => {
    const isolated = made.threaded!;
    for (const user of [admin, artist]) {
      for (const path of ['index.html', 'game.js', 'game.wasm']) {
        const response = await play(isolated, path, user);
        expect(response.statusCode, path).toBe(200);
        expect(response.headers, path).toMatchObject({
          'cross-origin-opener-policy': 'same-origin',
          'cross-origin-embedder-policy': 'credentialless',
          'cross-origin-resource-policy': 'cross-origin',
        });
        const again = await play(isolated, path, user, { 'if-none-match': String(response.headers.etag) });
        expect(again.statusCode).toBe(304);
        expect(again.headers['cross-origin-embedder-policy']).toBe('credentialless');
      }
    }
    const plain = await play(made.godot!, 'index.html', artist);
    expect(plain.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(plain.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(plain.headers['cross-origin-resource-policy']).toBe('cross-origin');

    // Off by hand: no isolation; on by hand for a game detection left off: isolated.
    expect((await patch(isolated, { isolated: 'off' })).statusCode).toBe(200);
    expect((await play(isolated, 'index.html')).headers['cross-origin-embedder-policy']).toBeUndefined();
    expect((await patch(made.godot!, { isolated: 'on' })).statusCode).toBe(200);
    expect((await play(made.godot!, 'index.html', artist)).headers['cross-origin-embedder-policy']).toBe(
      'credentialless',
    );
    await patch(await get(isolated.id), { isolated: 'auto' });
    await patch(await get(made.godot!.id), { isolated: 'auto' });
  });

  it('the path calls say whether the game is isolated, for the admin and the assigned artist', async () => {
    for (const user of [admin, artist]) {
      expect(
        (
          await call(t, 'GET', `/api/games/${made.threaded!.id}/path/`, { token: user.token })
        ).json<GamePath>().isolated,
      ).toBe(true);
      expect(
        (await call(t, 'GET', `/api/games/${made.godot!.id}/path/`, { token: user.token })).json<GamePath>()
          .isolated,
      ).toBe(false);
    }
  });

  it("the app serves an isolated game's play screens cross-origin isolated, and every other page as before", async () => {
    const page = (url: string) => call(t, 'GET', url);
    for (const path of playScreenPathList) {
      const isolated = await page(`${path}?gameId=${made.threaded!.id}&versionId=3&userGameId=4`);
      expect(isolated.statusCode, path).toBe(200);
      expect(isolated.headers['content-type']).toContain('text/html');
      expect(isolated.headers, path).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'credentialless',
      });
      const plain = await page(`${path}?gameId=${made.godot!.id}`);
      expect(plain.headers['cross-origin-embedder-policy'], path).toBeUndefined();
    }
    for (const url of [
      `/games?gameId=${made.threaded!.id}`,
      `/games/game-files?gameId=${made.threaded!.id}`,
      '/games/game-play',
      '/games/game-play?gameId=abc',
      '/games/game-play?gameId=0012',
      '/games/game-play?gameId=999999',
      `/games/game-play/extra?gameId=${made.threaded!.id}`,
      '/',
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cross-origin-embedder-policy'], url).toBeUndefined();
    }
    // A trailing slash is the same route.
    expect(
      (await page(`/games/game-play/?gameId=${made.threaded!.id}`)).headers['cross-origin-embedder-policy'],
    ).toBe('credentialless');
  });
});
