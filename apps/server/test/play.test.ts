import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, type Game, type GamePath } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { playHeaders } from '../src/play/play-app';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';
import { readyGame } from './support/ready-game';

const png = solidPng;

describe(`[API-3][API-7] the play origin on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let stranger: TestUser;
  let game: Game;
  let otherGame: Game;
  let original: Buffer;

  /** A play URL's path on the play origin (the tests talk to the play app directly). */
  const pathOf = (url: string) => new URL(url).pathname;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.playApp.inject({ method: 'GET', url, headers });

  async function paths(token: string, gameId: number) {
    return call(t, 'GET', `/api/games/${gameId}/path/`, { token });
  }

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist, stranger] = [
      await createUser(t, RoleType.Admin),
      await createUser(t),
      await createUser(t),
    ];
    original = await png(64, 48, 'orange');
    ({ game } = await readyGame(
      t,
      admin,
      'Play Me',
      [
        {
          path: 'game/index.html',
          content: '<!doctype html><script src="../lib/engine.js?v=1337"></script>',
        },
        { path: 'lib/engine.js', content: 'window.engine = 1;' },
        { path: 'game/img/hero.png', content: original },
        { path: 'game/data.json', content: '{"a":1}' },
        { path: 'game/mod.wasm', content: Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]) },
        { path: 'game/sfx/jump.ogg', content: Buffer.from('OggS-fake') },
        { path: 'game/sfx/coin.mp3', content: Buffer.from('ID3-fake') },
        { path: 'game/font.woff2', content: Buffer.from('wOF2-fake') },
      ],
      'game/index.html',
    ));
    ({ game: otherGame } = await readyGame(
      t,
      admin,
      'Other',
      [
        { path: 'index.html', content: '<p>' },
        { path: 'secret.png', content: await png(8, 8) },
      ],
      'index.html',
    ));
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
  });
  afterAll(async () => t.close());

  it('answers the three play URLs with a token in the path; only admins get the original', async () => {
    const adminPaths = (await paths(admin.token, game.id)).json<GamePath>();
    expect(adminPaths.wtmFile).toMatch(/^http:\/\/play\.test\/p\/[^/]+\/game\/index\.html$/);
    expect(adminPaths.rootPath).toMatch(/^http:\/\/play\.test\/p\/[^/]+\/$/);
    const adminHero = await get(pathOf(adminPaths.wtmFile).replace('index.html', 'img/hero.png'));
    expect(adminHero.statusCode).toBe(200);
    expect(adminHero.rawPayload.equals(original)).toBe(true);

    const artistPaths = (await paths(artist.token, game.id)).json<GamePath>();
    const marked = await get(pathOf(artistPaths.wtmFile).replace('index.html', 'img/hero.png'));
    expect(marked.statusCode).toBe(200);
    expect(marked.rawPayload.equals(original)).toBe(false);
    expect(await sharp(marked.rawPayload).metadata()).toMatchObject({ width: 64, height: 48, format: 'png' });

    const skeleton = await get(pathOf(artistPaths.emtFile).replace('index.html', 'img/hero.png'));
    const meta = await sharp(skeleton.rawPayload).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([64, 48, 'png']);
    expect((await sharp(skeleton.rawPayload).ensureAlpha().stats()).channels[3]!.max).toBe(0);
  });

  it('serves the right MIME types and the DESIGN.md headers, ignores query strings, and resolves ../ paths', async () => {
    const base = pathOf((await paths(admin.token, game.id)).json<GamePath>().wtmFile).replace(
      /game\/index\.html$/,
      '',
    );
    const expected: [string, string][] = [
      ['game/index.html', 'text/html'],
      ['lib/engine.js?v=1337', 'text/javascript'],
      ['game/img/hero.png?cache=bust', 'image/png'],
      ['game/data.json', 'application/json'],
      ['game/mod.wasm', 'application/wasm'],
      ['game/sfx/jump.ogg', 'audio/ogg'],
      ['game/sfx/coin.mp3', 'audio/mpeg'],
      ['game/font.woff2', 'font/woff2'],
    ];
    for (const [path, type] of expected) {
      const response = await get(base + path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type'], path).toContain(type);
      for (const [header, value] of Object.entries(playHeaders))
        expect(response.headers[header.toLowerCase()], `${path} ${header}`).toBe(value);
      expect(response.headers.etag).toBeTruthy();
    }
    // The index in game/ loads ../lib/engine.js: the browser asks for lib/engine.js under the same token.
    expect(new URL('../lib/engine.js', `http://play.test${base}game/index.html`).pathname).toBe(
      `${base}lib/engine.js`,
    );
    const first = await get(base + 'game/img/hero.png');
    const again = await get(base + 'game/img/hero.png', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("a token for one game cannot fetch another game's files", async () => {
    const base = pathOf((await paths(artist.token, game.id)).json<GamePath>().wtmFile).replace(
      /game\/index\.html$/,
      '',
    );
    expect((await get(base + 'secret.png')).statusCode).toBe(404);
    expect((await get(base + 'index.html')).statusCode).toBe(404);
    expect((await get(base + '../secret.png')).statusCode).toBe(404);
  });

  it('a tampered or expired token gets 403', async () => {
    const url = pathOf((await paths(artist.token, game.id)).json<GamePath>().wtmFile);
    const token = url.split('/')[2]!;
    const tampered = token.slice(0, -3) + (token.endsWith('A') ? 'BBB' : 'AAA');
    expect((await get(url.replace(token, tampered))).statusCode).toBe(403);

    const key = createHash('sha256').update(`play-origin:${t.config.jwtSecret}`).digest();
    const expired = await new SignJWT({ g: game.id, view: 'original', u: artist.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const refused = await get(url.replace(token, expired));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { statusCode: 403 } });
    // A session token is not a play token.
    expect((await get(url.replace(token, artist.token))).statusCode).toBe(403);
  });

  it('refuses the path call to anonymous callers (401), to unassigned users (404) and for games not Ready (409)', async () => {
    expect((await call(t, 'GET', `/api/games/${game.id}/path/`)).statusCode).toBe(401);
    expect((await paths(stranger.token, game.id)).statusCode).toBe(404);
    expect((await paths(artist.token, otherGame.id)).statusCode).toBe(404);
    const draft = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Draft', description: 'x', width: 480, height: 640 },
      })
    ).json<Game>();
    expect((await paths(admin.token, draft.id)).statusCode).toBe(409);
  });

  it('hands the same link out again while it has an hour or more to live (browsers cache, no signature per card); a new token version gets a new link', async () => {
    const first = (await paths(artist.token, game.id)).json<GamePath>();
    const again = (await paths(artist.token, game.id)).json<GamePath>();
    expect(again).toEqual(first);
    expect((await paths(admin.token, game.id)).json<GamePath>().wtmFile).not.toBe(first.wtmFile);
    await t.database.db
      .updateTable('users')
      .set((eb) => ({ tokenVersion: eb('tokenVersion', '+', 1) }))
      .where('id', '=', artist.id)
      .execute();
    const fresh = await paths(artist.token, game.id);
    // The session token carries the old version too: the path call itself now refuses it, and a new session gets new links.
    expect(fresh.statusCode).toBe(401);
    const relogin = (
      await call(t, 'POST', '/api/user/login', {
        payload: { email: artist.email, password: artist.password },
      })
    ).json<{ token: string }>();
    const renewed = (await paths(relogin.token, game.id)).json<GamePath>();
    expect(renewed.wtmFile).not.toBe(first.wtmFile);
    expect((await get(pathOf(renewed.wtmFile))).statusCode).toBe(200);
    expect((await get(pathOf(first.wtmFile))).statusCode).toBe(403);
    artist.token = relogin.token;
  });
});
