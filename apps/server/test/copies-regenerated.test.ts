import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, type Game, type GameFile, type GamePath } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/**
 * Gen. made the copies of an unchanged image again under the same keys, and a server that had kept the watermarked
 * copy's body (PlayBodies, by key) went on serving the old bytes under the old ETag until it restarted. Copies made
 * again get new keys (decision 0046), so every server serves the new ones at once.
 */
describe(`copies made again by Gen. reach every server at once, on ${testDb}`, () => {
  /** The server that generated first and keeps the bodies it serves. */
  let b: TestApp;
  /** A second server on the same database, whose product name (the watermark's text) was changed. */
  let a: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let heroUrl: string;

  const served = (server: TestApp) => server.playApp.inject({ method: 'GET', url: heroUrl });

  beforeAll(async () => {
    b = await createTestApp({ productName: 'Reskin Studio' });
    [admin, artist] = [await createUser(b, RoleType.Admin), await createUser(b)];
    game = await createGame(b, admin.token, { name: 'Renamed', description: 'x', width: 480, height: 640 });
    const hero = await sharp({
      create: { width: 240, height: 120, channels: 3, background: { r: 40, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const uploaded = await b.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="hero.png">' },
        { path: 'hero.png', content: hero },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = (await call(b, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(
      b,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(b, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await b.generation.idle();
    await call(b, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
    });
    const paths = (
      await call(b, 'GET', `/api/games/${game.id}/path/`, { token: artist.token })
    ).json<GamePath>();
    heroUrl = new URL(paths.wtmFile).pathname.replace(/index\.html$/, 'hero.png');
    a = await createTestApp(
      { productName: 'Another Studio Name' },
      { dataDir: b.config.dataDir, schema: b.schema },
    );
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('after Gen. on another server with a changed product name, the server that kept the watermarked copy serves the new bytes under a new ETag', async () => {
    const before = await served(b);
    expect(before.statusCode).toBe(200);
    // Served again: from the body B keeps.
    expect((await served(b)).rawPayload.equals(before.rawPayload)).toBe(true);

    // Only A takes the job on PostgreSQL's shared queue, so the copies carry A's product name.
    if (testDb === 'postgres') await b.generation.close();
    const pressed = await call(a, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect(pressed.statusCode, pressed.body).toBe(200);
    await a.generation.idle();

    const after = await served(b);
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
    // What A serves: the same new copy.
    const fromA = await served(a);
    expect(fromA.headers.etag).toBe(after.headers.etag);
    expect(fromA.rawPayload.equals(after.rawPayload)).toBe(true);
    // A revalidation with the old ETag gets the new copy, not a 304.
    expect(
      (
        await b.playApp.inject({
          method: 'GET',
          url: heroUrl,
          headers: { 'if-none-match': String(before.headers.etag) },
        })
      ).statusCode,
    ).toBe(200);
  });
});
