import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GameStatus,
  limits,
  RoleType,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { PlayTokens, sharedPeriodMs } from '../src/modules/play-paths/play-tokens';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';

/** A script that compresses well, as engine builds do; over 64 KB, as the files the play origin redirects. */
const engine = Buffer.from(
  `window.engine = function (n) { return n * 2; };\n${'var padding = "a build of some size";\n'.repeat(2000)}`,
);
const data = JSON.stringify({
  levels: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `level ${i}` })),
});
/** An image over 64 KB (noise does not compress): smaller ones are answered in place, never redirected. */
const noisyPng = () =>
  sharp(randomBytes(160 * 160 * 3), { raw: { width: 160, height: 160, channels: 3 } })
    .png()
    .toBuffer();
const sound = Buffer.from(Array.from({ length: 8192 }, (_, i) => i % 251));

/** What the game's own page sends for a subresource (Fetch Metadata), by kind of request. */
const fromGame = {
  script: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'no-cors' },
  moduleScript: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'cors' },
  fetch: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' },
  image: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' },
  style: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'style', 'sec-fetch-mode': 'no-cors' },
  worker: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'worker', 'sec-fetch-mode': 'same-origin' },
  frame: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe', 'sec-fetch-mode': 'navigate' },
  appPreview: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' },
} as const;

describe(`the play origin compresses, and serves a file the same in every view at one URL, on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let stranger: TestUser;
  let game: Game;
  let version: GameVersion;
  /** The roots (`/p/<token>/`) of the artist's views and the admin's original. */
  let roots: {
    version: string;
    watermark: string;
    skeleton: string;
    original: string;
    strangerOther?: string;
  };

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.playApp.inject({ method: 'GET', url, headers });
  const rootOf = (url: string) => new URL(url).pathname.replace(/index\.html$/, '');

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist, stranger] = [
      await createUser(t, RoleType.Admin),
      await createUser(t),
      await createUser(t),
    ];
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Shared', description: 'x', width: 480, height: 640 },
      })
    ).json<Game>();
    const files: [string, Buffer | string][] = [
      [
        'index.html',
        '<!doctype html><link rel="stylesheet" href="style.css"><script src="lib/engine.js"></script>',
      ],
      ['style.css', 'body { background: url(img/hero.png); }'],
      ['lib/engine.js', engine],
      ['data/levels.json', data],
      ['img/hero.png', await solidPng(32, 24, 'orange')],
      ['img/enemy.png', await noisyPng()],
      [
        'img/logo.svg',
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
      ],
      ['sfx/jump.wav', sound],
      ['Build/game.data.gz', gzipSync(Buffer.from(data))],
    ];
    const body = new FormData();
    for (const [path, content] of files) {
      body.append('fullPath', path);
      body.append('file', new Blob([content]), path);
    }
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/game/upload/${game.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: body,
        })
      ).statusCode,
    ).toBe(200);
    const listed = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${listed.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    for (
      let i = 0;
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>()
        .gameStatusTypeId !== GameStatus.Ready;
      i++
    ) {
      if (i === 200) throw new Error('not ready');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 10 },
      })
    ).json<UserGame>();
    version = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: {
          name: 'Mine',
          description: 'My look',
          gameId: game.id,
          userGamesId: userGame.id,
          isLocked: false,
        },
      })
    ).json<GameVersion>();
    // The version replaces the hero: that image is then its own in the version's view.
    const replacement = new FormData();
    replacement.append('fullPath', 'img/hero.png');
    replacement.append('file', new Blob([await solidPng(32, 24, 'purple')]), 'hero.png');
    const hero = listed.find((f) => f.path === 'img/hero.png')!;
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${hero.fileId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: replacement,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const artistPaths = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token })
    ).json<GamePath>();
    const adminPaths = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
    ).json<GamePath>();
    roots = {
      version: rootOf(artistPaths.orjFile),
      watermark: rootOf(artistPaths.wtmFile),
      skeleton: rootOf(artistPaths.emtFile),
      original: rootOf(adminPaths.wtmFile),
    };
  });
  afterAll(async () => t.close());

  it('compresses text with brotli or gzip by Accept-Encoding, with Vary and an ETag per encoding', async () => {
    const url = roots.watermark + 'lib/engine.js';
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(engine.length / 10);
    expect(brotliDecompressSync(br.rawPayload).equals(engine)).toBe(true);

    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(engine)).toBe(true);
    const refused = await get(url, { 'accept-encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');

    const identity = await get(url);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toBe('Accept-Encoding');
    expect(identity.rawPayload.equals(engine)).toBe(true);

    const etags = new Set([br.headers.etag, gzip.headers.etag, identity.headers.etag]);
    expect(etags.size).toBe(3);
    // Kept: the second compressed answer is the same bytes.
    expect((await get(url, { 'accept-encoding': 'br' })).rawPayload.equals(br.rawPayload)).toBe(true);
    // A revalidation with the encoded ETag: 304, with Vary again.
    const notModified = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers.vary).toBe('Accept-Encoding');
    // nginx's gzip passes ETags on weak: a weak match is a match for If-None-Match.
    expect(
      (await get(url, { 'accept-encoding': 'br', 'if-none-match': `W/${String(br.headers.etag)}` }))
        .statusCode,
    ).toBe(304);
    // JSON, SVG and WAV compress too.
    for (const path of ['img/logo.svg', 'sfx/jump.wav']) {
      expect(
        (await get(roots.original + path, { 'accept-encoding': 'gzip' })).headers['content-encoding'],
        path,
      ).toBe('gzip');
    }
  });

  it('never compresses images or pre-compressed files, and answers ranges as stored', async () => {
    const png = await get(roots.watermark + 'img/hero.png', { 'accept-encoding': 'gzip, br' });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    // A .gz (sent as stored here: no Unity loader) is not compressed again.
    const build = await get(roots.original + 'Build/game.data.gz', { 'accept-encoding': 'gzip, br' });
    expect(build.headers['content-type']).toBe('application/gzip');
    expect(build.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(build.rawPayload).toString()).toBe(data);

    // An audio element's seek: a range of the stored bytes, never compressed.
    const range = await get(roots.watermark + 'sfx/jump.wav', {
      'accept-encoding': 'gzip, br',
      range: 'bytes=100-199',
    });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.headers['content-range']).toBe(`bytes 100-199/${sound.length}`);
    expect(range.rawPayload.equals(sound.subarray(100, 200))).toBe(true);
    const script = await get(roots.watermark + 'lib/engine.js', {
      'accept-encoding': 'br',
      range: 'bytes=0-9',
    });
    expect(script.statusCode).toBe(206);
    expect(script.rawPayload.toString()).toBe(engine.subarray(0, 10).toString());
  });

  it('gives a file the same in every view the same ETag in every view, so a revalidation from another view is a 304', async () => {
    const etagIn = async (root: string, path: string) =>
      (await get(root + path, { 'accept-encoding': 'br' })).headers.etag;
    const engineTag = await etagIn(roots.version, 'lib/engine.js');
    for (const root of [roots.watermark, roots.skeleton, roots.original]) {
      expect(await etagIn(root, 'lib/engine.js')).toBe(engineTag);
      expect(
        (await get(root + 'lib/engine.js', { 'accept-encoding': 'br', 'if-none-match': String(engineTag) }))
          .statusCode,
      ).toBe(304);
    }
    // An image's watermarked copy is the same in the watermarked view and in a version that did not replace it.
    expect(await etagIn(roots.version, 'img/enemy.png')).toBe(await etagIn(roots.watermark, 'img/enemy.png'));
    // Other bytes, other ETags: the skeleton's copy, the admin's original, the version's own hero.
    expect(await etagIn(roots.skeleton, 'img/enemy.png')).not.toBe(
      await etagIn(roots.watermark, 'img/enemy.png'),
    );
    expect(await etagIn(roots.original, 'img/enemy.png')).not.toBe(
      await etagIn(roots.watermark, 'img/enemy.png'),
    );
    expect(await etagIn(roots.version, 'img/hero.png')).not.toBe(
      await etagIn(roots.watermark, 'img/hero.png'),
    );
  });

  it("redirects the game's own requests for a shared file to one URL for every view of the user", async () => {
    const sharedUrl = async (
      root: string,
      path: string,
      headers: Record<string, string> = fromGame.script,
    ) => {
      const response = await get(root + path, headers);
      expect(response.statusCode, `${root}${path}`).toBe(302);
      // A script's redirect may be kept (no version can replace it); an image's, which a version can, not.
      expect(response.headers['cache-control']).toMatch(
        path.endsWith('.png') ? /^no-store$/ : /^private, max-age=\d+$/,
      );
      return String(response.headers.location);
    };
    const fromVersion = await sharedUrl(roots.version, 'lib/engine.js');
    expect(fromVersion).toMatch(/^\/s\/[^/]+\/[^/]+\/lib\/engine\.js$/);
    expect(await sharedUrl(roots.watermark, 'lib/engine.js')).toBe(fromVersion);
    expect(await sharedUrl(roots.skeleton, 'lib/engine.js')).toBe(fromVersion);
    expect(await sharedUrl(roots.watermark, 'lib/engine.js', fromGame.fetch)).toBe(fromVersion);
    // The unreplaced image's watermarked copy: one URL for the version and the watermarked view.
    expect(await sharedUrl(roots.version, 'img/enemy.png', fromGame.image)).toBe(
      await sharedUrl(roots.watermark, 'img/enemy.png', fromGame.image),
    );
    expect(await sharedUrl(roots.skeleton, 'img/enemy.png', fromGame.image)).not.toBe(
      await sharedUrl(roots.watermark, 'img/enemy.png', fromGame.image),
    );

    // The shared URL answers the file with the same ETag, compressed too, and revalidates.
    const direct = await get(roots.watermark + 'lib/engine.js', { 'accept-encoding': 'br' });
    const shared = await get(fromVersion, { 'accept-encoding': 'br' });
    expect(shared.statusCode).toBe(200);
    expect(shared.headers.etag).toBe(direct.headers.etag);
    expect(brotliDecompressSync(shared.rawPayload).equals(engine)).toBe(true);
    expect(shared.headers['content-security-policy']).toBe(direct.headers['content-security-policy']);
    expect(
      (await get(fromVersion, { 'accept-encoding': 'br', 'if-none-match': String(shared.headers.etag) }))
        .statusCode,
    ).toBe(304);
  });

  it('answers in place what must stay under its view: documents, frames, style sheets, workers, module scripts, other sites, own files', async () => {
    for (const headers of [
      fromGame.frame,
      fromGame.style,
      fromGame.worker,
      fromGame.moduleScript,
      fromGame.appPreview,
      {},
    ]) {
      expect(
        (await get(roots.watermark + 'lib/engine.js', headers)).statusCode,
        JSON.stringify(headers),
      ).toBe(200);
    }
    // A small file the same in every view: answered from memory in place, a round trip less than a redirect.
    for (const [path, headers] of [
      ['img/hero.png', fromGame.image],
      ['style.css', fromGame.fetch],
    ] as const)
      expect((await get(roots.watermark + path, headers)).statusCode, path).toBe(200);
    // The admin's original image, and the version's own file, are no one else's: never on a shared URL.
    expect((await get(roots.original + 'img/hero.png', fromGame.image)).statusCode).toBe(200);
    expect((await get(roots.version + 'img/hero.png', fromGame.image)).statusCode).toBe(200);
  });

  it('refuses a shared URL as strictly as a play link: tampered, a play token, another game, a user without access', async () => {
    const location = String((await get(roots.watermark + 'lib/engine.js', fromGame.script)).headers.location);
    const [, , token, cid] = location.split('/');
    const playToken = roots.watermark.split('/')[2]!;
    expect((await get(`/s/${token!.slice(0, -2)}xx/${cid}/lib/engine.js`)).statusCode).toBe(403);
    expect((await get(`/s/${playToken}/${cid}/lib/engine.js`)).statusCode).toBe(403);
    // A shared token is no play token either.
    expect((await get(`/p/${token}/lib/engine.js`)).statusCode).toBe(403);
    // A content id that is not the file's: a stale one of a file that is no image moves to the current URL; an
    // image's without its view (whose content differs by view) is a 404; a path of another game's is not reachable.
    const moved = await get(`/s/${token}/${cid}/style.css`);
    expect(moved.statusCode).toBe(302);
    expect(String(moved.headers.location)).toMatch(new RegExp(`^/s/${token}/[^/]+/style\\.css$`));
    expect((await get(`/s/${token}/${cid}/img/hero.png`)).statusCode).toBe(404);
    // An image's shared URL names its view, so a stale one (the copies were made again after the redirect: a game
    // reloading its art while the admin replaces it) moves to the current copy of that view.
    const imageUrl = String((await get(roots.skeleton + 'img/enemy.png', fromGame.image)).headers.location);
    expect(imageUrl).toMatch(new RegExp(`^/s/${token}/[^/.]+\\.s/img/enemy\\.png$`));
    const staleImage = await get(`/s/${token}/${cid}.s/img/enemy.png`);
    expect(staleImage.statusCode).toBe(302);
    expect(staleImage.headers.location).toBe(imageUrl);
    expect((await get(`/s/${token}/${cid}.w/img/enemy.png`)).headers.location).toBe(
      (await get(roots.watermark + 'img/enemy.png', fromGame.image)).headers.location,
    );
    expect((await get(imageUrl)).statusCode).toBe(200);
    expect((await get(`/s/${token}/${cid}/no-such.js`)).statusCode).toBe(404);

    // The admin's original image is not reachable on the artist's shared URL, whatever the content id.
    const originalTag = String((await get(roots.original + 'img/hero.png')).headers.etag).slice(1, -1);
    expect((await get(`/s/${token}/${originalTag}/img/hero.png`)).statusCode).toBe(404);

    // Unassigned: refused (the tests keep no access answers: PLAY_ACCESS_CACHE_SECONDS=0).
    expect((await get(location)).statusCode).toBe(200);
    await t.database.db
      .updateTable('userGames')
      .set({ isActive: 0 })
      .where('userId', '=', artist.id)
      .execute();
    const refused = await get(location);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('This play link no longer gives access: open the game again.');
    await t.database.db
      .updateTable('userGames')
      .set({ isActive: 1 })
      .where('userId', '=', artist.id)
      .execute();
    expect((await get(location)).statusCode).toBe(200);
    // Another user cannot get a shared token at all: their play links are refused before any redirect.
    expect((await call(t, 'GET', `/api/games/${game.id}/path/`, { token: stranger.token })).statusCode).toBe(
      404,
    );
  });

  it('lets the browser keep the redirect of a file no version can replace, until its links expire, and never serves it stale', async () => {
    const redirect = async (root: string, path: string, headers: Record<string, string>) => {
      const response = await get(root + path, headers);
      expect(response.statusCode, path).toBe(302);
      return response;
    };
    const kept = await redirect(roots.version, 'data/levels.json', fromGame.fetch);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(kept.headers['cache-control']))?.[1]);
    // At most the view link's life (limits.playTokenHours), which ends before the shared link's.
    expect(maxAge).toBeGreaterThan(3600);
    expect(maxAge).toBeLessThanOrEqual(limits.playTokenHours * 3600);
    // Kept per kind of request: the same path asked for as a style sheet or a document is answered in place.
    expect(String(kept.headers.vary)).toBe('Sec-Fetch-Site, Sec-Fetch-Dest, Sec-Fetch-Mode');
    // An image the version has not replaced yet: the artist may replace it, so its redirect is asked again each time.
    expect((await redirect(roots.version, 'img/enemy.png', fromGame.image)).headers['cache-control']).toBe(
      'no-store',
    );

    // The admin replaces the file: the kept redirect's shared URL moves to the new file (asked afresh, not kept).
    const keptUrl = String(kept.headers.location);
    const newData = JSON.stringify({
      levels: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `replaced ${i}` })),
    });
    const body = new FormData();
    body.append('fullPath', 'data/levels.json');
    body.append('file', new Blob([newData]), 'levels.json');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const moved = await get(keptUrl, fromGame.fetch);
    expect(moved.statusCode).toBe(302);
    expect(moved.headers['cache-control']).toBe('no-store');
    expect(moved.headers.location).not.toBe(keptUrl);
    const current = await get(String(moved.headers.location), fromGame.fetch);
    expect(current.statusCode).toBe(200);
    expect(current.body).toBe(newData);
    // A redirect of a link within a second of its end is not kept (past it, it is refused).
    const token = roots.version.split('/')[2]!;
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(exp * 1000 - 800);
      expect(
        (await redirect(roots.version, 'data/levels.json', fromGame.fetch)).headers['cache-control'],
      ).toBe('no-store');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a shared token the same for every link signed again within its period, and lets it expire', async () => {
    const tokens = new PlayTokens('a secret of the tests');
    const start = Math.floor(Date.now() / sharedPeriodMs) * sharedPeriodMs;
    const claims = { g: 7, u: 3, tv: 1 };
    const first = tokens.signShared(claims, start + 1000);
    // A fresh PlayTokens (another server with the same secret) signs the same token: nothing random, no iat.
    expect(new PlayTokens('a secret of the tests').signShared(claims, start + sharedPeriodMs - 1000)).toBe(
      first,
    );
    expect(tokens.signShared(claims, start + sharedPeriodMs + 1000)).not.toBe(first);
    expect(tokens.signShared({ ...claims, tv: 2 }, start + 1000)).not.toBe(first);
    expect(tokens.verifyShared(first)).toEqual(claims);
    // A play token's key does not check it, nor the other way round.
    expect(await tokens.verify(first)).toBeUndefined();
    expect(tokens.verifyShared(await tokens.sign({ g: 7, u: 3, view: 'watermark' }))).toBeUndefined();
    const past = tokens.signShared(claims, Date.now() - 3 * sharedPeriodMs);
    expect(tokens.verifyShared(past)).toBeUndefined();
  });
});
