import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, type Game, type GameFile, type GamePath } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';

/** A Unity WebGL build as Unity writes it with compression on and decompression fallback off. */
const wasm = Buffer.from([0, 97, 115, 109, 1, 0, 0, 0, ...Array.from({ length: 256 }, (_, i) => i % 7)]);
const data = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));
const framework = Buffer.from('var unityFramework = function () { return "héllo"; };\n'.repeat(40));

describe(`[API-3] pre-compressed builds on the play origin on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let hero: Buffer;
  let adminBase: string;
  let artistBase: string;

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.playApp.inject({ method: 'GET', url, headers });
  const baseOf = (url: string) => new URL(url).pathname.replace(/index\.html$/, '');

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    hero = await sharp({ create: { width: 16, height: 16, channels: 3, background: 'blue' } })
      .png()
      .toBuffer();
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Unity Build', description: 'x', width: 960, height: 600 },
      })
    ).json<Game>();
    const files: [string, Buffer][] = [
      ['index.html', Buffer.from('<!doctype html><script src="Build/game.loader.js"></script>')],
      ['Build/game.loader.js', Buffer.from('createUnityInstance = () => 1;')],
      ['Build/game.wasm.br', brotliCompressSync(wasm)],
      ['Build/game.data.gz', gzipSync(data)],
      ['Build/game.framework.js.gz', gzipSync(framework)],
      ['game.wasm', wasm],
      ['img/hero.png.gz', gzipSync(hero)],
    ];
    const body = new FormData();
    for (const [path, content] of files) {
      body.append('fullPath', path);
      body.append('file', new Blob([content]), path);
    }
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const list = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${list.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    for (let i = 0; i < 200 && game.gameStatusTypeId !== GameStatus.Ready; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      game = (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>();
    }
    // A .png.gz is not an image: generation neither decodes it nor fails on it.
    expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
    const now = nowIso();
    await t.database.db
      .insertInto('userGames')
      .values({
        userId: artist.id,
        gameId: game.id,
        userGameTypeId: 1,
        jobPrice: 10,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    adminBase = baseOf(
      (await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })).json<GamePath>().wtmFile,
    );
    artistBase = baseOf(
      (await call(t, 'GET', `/api/games/${game.id}/path/`, { token: artist.token })).json<GamePath>().wtmFile,
    );
  });
  afterAll(async () => t.close());

  it('serves .br and .gz files as stored, with Content-Encoding and the type of the inner name', async () => {
    const cases: [string, string, string, (body: Buffer) => Buffer, Buffer][] = [
      ['Build/game.wasm.br', 'br', 'application/wasm', brotliDecompressSync, wasm],
      ['Build/game.data.gz', 'gzip', 'application/octet-stream', gunzipSync, data],
      ['Build/game.framework.js.gz', 'gzip', 'text/javascript; charset=utf-8', gunzipSync, framework],
    ];
    for (const [path, encoding, type, decode, original] of cases) {
      // A browser asks with Accept-Encoding; the answer is the stored bytes whatever it asks.
      for (const acceptEncoding of ['gzip, deflate, br', 'identity']) {
        const response = await get(adminBase + path, { 'accept-encoding': acceptEncoding });
        expect(response.statusCode, path).toBe(200);
        expect(response.headers['content-encoding'], path).toBe(encoding);
        expect(response.headers['content-type'], path).toBe(type);
        expect(Number(response.headers['content-length']), path).toBe(response.rawPayload.length);
        expect(response.headers.etag, path).toBeTruthy();
        expect(response.headers['cache-control'], path).toBe('private, no-cache');
        expect(decode(response.rawPayload).equals(original), path).toBe(true);
      }
    }
    const notModified = await get(adminBase + 'Build/game.wasm.br', {
      'if-none-match': String((await get(adminBase + 'Build/game.wasm.br')).headers.etag),
    });
    expect(notModified.statusCode).toBe(304);
  });

  it('serves a plain .wasm as application/wasm, compressed only when the client accepts it', async () => {
    const response = await get(adminBase + 'game.wasm', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/wasm');
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).equals(wasm)).toBe(true);
    const plain = await get(adminBase + 'game.wasm');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(wasm)).toBe(true);
  });

  it('records the inner type at upload, and never treats a compressed image as an image', async () => {
    const list = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const byPath = new Map(list.map((file) => [file.path, file]));
    expect(byPath.get('Build/game.wasm.br')).toMatchObject({
      contentType: 'application/wasm',
      width: null,
      height: null,
    });
    expect(byPath.get('img/hero.png.gz')).toMatchObject({
      contentType: 'image/png',
      width: null,
      height: null,
    });
    // The artist's watermarked view serves it as any other non-image file: as stored, no copy.
    const response = await get(artistBase + 'img/hero.png.gz');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).equals(hero)).toBe(true);
  });
});
