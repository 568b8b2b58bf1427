import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { RoleType, validationMessages, type Game, type GameFile } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/** A solid PNG (or JPEG) of the given size. */
function image(width: number, height: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** A multipart body of files as the admin screen sends them, its filename field included. */
const form = (files: { path: string; content: Buffer | string }[]) =>
  filesForm(files, { filenameField: true });

describe(`games and game files on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ maxFileSizeBytes: 200_000 });
    admin = await createUser(t, RoleType.Admin);
    user = await createUser(t, RoleType.User);
  });
  afterAll(async () => t.close());

  const newGame = (name = 'Bird Flap'): Promise<Game> =>
    createGame(t, admin.token, { name, description: 'A bird flaps', width: 480, height: 640 });

  async function upload(gameId: number, files: { path: string; content: Buffer | string }[]) {
    return t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${gameId}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: form(files),
    });
  }

  async function filesOf(gameId: number): Promise<GameFile[]> {
    const response = await call(t, 'GET', `/api/games/${gameId}/files`, { token: admin.token });
    expect(response.statusCode).toBe(200);
    return response.json<GameFile[]>();
  }

  it('[API-3][GAM-1] creates a Draft game, gets, filters, edits and deletes it', async () => {
    const game = await newGame('Filter Me');
    expect(game).toMatchObject({
      name: 'Filter Me',
      width: 480,
      height: 640,
      gameStatusTypeId: 1,
      isActive: true,
      imagePath: '',
    });

    const got = await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token });
    expect(got.json()).toEqual(game);

    const filtered = await call(t, 'POST', '/api/games/filter', {
      token: admin.token,
      payload: { where: { name: { like: '%filter me%' } }, fields: { id: true, name: true }, limit: 10 },
    });
    expect(filtered.json()).toEqual([{ id: game.id, name: 'Filter Me' }]);
    // Without fields, the whole game comes back, the columns that cannot be searched included, and the splash's
    // thumbnail (none without a splash).
    const whole = await call(t, 'POST', '/api/games/filter', {
      token: admin.token,
      payload: { where: { id: game.id } },
    });
    expect(whole.json()).toEqual([{ ...game, thumbnailUrl: null }]);

    const edited = await call(t, 'PATCH', `/api/games/${game.id}`, {
      token: admin.token,
      payload: {
        name: 'Renamed',
        description: 'New words',
        width: 300,
        height: 400,
        gameStatusTypeId: 1,
        isActive: false,
        imagePath: '',
        rootPath: '',
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Renamed', width: 300, height: 400, isActive: false });

    const deleted = await call(t, 'DELETE', `/api/games/${game.id}/`, { token: admin.token });
    expect(deleted.statusCode).toBe(200);
    expect((await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it('[GAM-1][GAM-2] refuses games below the minimum size and a hand-set Ready status', async () => {
    const small = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Tiny', description: 'x', width: 299, height: 399 },
    });
    expect(small.statusCode).toBe(422);
    expect(errorOf(small).details?.map((d) => d.path)).toEqual(['/width', '/height']);

    const game = await newGame();
    const ready = await call(t, 'PATCH', `/api/games/${game.id}`, {
      token: admin.token,
      payload: { name: 'x', description: 'y', width: 480, height: 640, gameStatusTypeId: 2, isActive: true },
    });
    expect(ready.statusCode).toBe(422);
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().gameStatusTypeId,
    ).toBe(1);
  });

  it('[API-5][GF-1] uploads a folder keeping paths and UTF-8 names, with image sizes recorded', async () => {
    const game = await newGame();
    const response = await upload(game.id, [
      { path: 'bird/index.html', content: '<!doctype html><canvas></canvas>' },
      { path: 'bird/img/bird.png', content: await image(34, 24) },
      { path: 'bird/img/sky.jpg', content: await image(48, 64, 'jpeg') },
      { path: 'bird/img/ünïcödé 鳥.png', content: await image(5, 7) },
      { path: 'bird/lib/engine.js', content: 'console.log(1)' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const files = await filesOf(game.id);
    expect(files.map((f) => f.path).sort()).toEqual(
      [
        'bird/img/bird.png',
        'bird/img/sky.jpg',
        'bird/img/ünïcödé 鳥.png',
        'bird/index.html',
        'bird/lib/engine.js',
      ].sort(),
    );
    const bird = files.find((f) => f.path === 'bird/img/bird.png');
    expect(bird).toMatchObject({ width: 34, height: 24, contentType: 'image/png', isStartFile: false });
    expect(files.find((f) => f.path === 'bird/img/sky.jpg')).toMatchObject({
      width: 48,
      height: 64,
      contentType: 'image/jpeg',
    });
    expect(files.find((f) => f.path === 'bird/index.html')).toMatchObject({
      width: null,
      height: null,
      contentType: 'text/html',
    });
    expect(new Set(files.map((f) => f.fileId)).size).toBe(5);
  });

  it('[GF-2][GF-3][GF-4] marks the index (clearing the others) and the splash, and deletes a file', async () => {
    const game = await newGame();
    await upload(game.id, [
      { path: 'a.html', content: '<p>a' },
      { path: 'b.html', content: '<p>b' },
      { path: 'splash.png', content: await image(10, 10) },
    ]);
    const files = await filesOf(game.id);
    const [a, b] = [files.find((f) => f.path === 'a.html')!, files.find((f) => f.path === 'b.html')!];
    expect(
      (await call(t, 'PATCH', `/api/games/${game.id}/files/${a.fileId}/index`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'PATCH', `/api/games/${game.id}/files/${b.fileId}/index`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const after = await filesOf(game.id);
    expect(after.filter((f) => f.isStartFile).map((f) => f.path)).toEqual(['b.html']);

    const splash = files.find((f) => f.path === 'splash.png')!;
    expect(
      (await call(t, 'PATCH', `/api/games/${game.id}/files/${splash.fileId}/splash`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().imagePath,
    ).toBe('splash.png');
    const notImage = await call(t, 'PATCH', `/api/games/${game.id}/files/${a.fileId}/splash`, {
      token: admin.token,
    });
    expect(notImage.statusCode).toBe(422);

    const removed = await call(t, 'DELETE', `/api/games/${game.id}/files/${splash.fileId}/`, {
      token: admin.token,
    });
    expect(removed.statusCode).toBe(200);
    expect((await filesOf(game.id)).map((f) => f.path).sort()).toEqual(['a.html', 'b.html']);
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().imagePath,
    ).toBe('');
    expect(
      (await call(t, 'DELETE', `/api/games/${game.id}/files/999/`, { token: admin.token })).statusCode,
    ).toBe(404);
  });

  it('[GF-5] a png or jpg replacement keeps its fileId and must keep the original size; other types are not checked', async () => {
    const game = await newGame();
    await upload(game.id, [
      { path: 'hero.png', content: await image(20, 30) },
      {
        path: 'anim.gif',
        content: await sharp({ create: { width: 8, height: 8, channels: 4, background: 'blue' } })
          .gif()
          .toBuffer(),
      },
    ]);
    const before = (await filesOf(game.id)).find((f) => f.path === 'hero.png')!;

    const wrong = await upload(game.id, [{ path: 'hero.png', content: await image(21, 30) }]);
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).details?.[0]?.message).toBe(
      validationMessages.imageSize({ width: 20, height: 30 }, { width: 21, height: 30 }),
    );

    const right = await upload(game.id, [{ path: 'hero.png', content: await image(20, 30) }]);
    expect(right.statusCode).toBe(200);
    const after = (await filesOf(game.id)).find((f) => f.path === 'hero.png')!;
    expect(after.fileId).toBe(before.fileId);

    const gif = await upload(game.id, [
      {
        path: 'anim.gif',
        content: await sharp({ create: { width: 16, height: 4, channels: 4, background: 'red' } })
          .gif()
          .toBuffer(),
      },
    ]);
    expect(gif.statusCode).toBe(200);
    expect((await filesOf(game.id)).find((f) => f.path === 'anim.gif')).toMatchObject({
      width: 16,
      height: 4,
    });
  });

  it('refuses bad uploads with a clear 4xx and stores nothing of them', async () => {
    const game = await newGame();
    await upload(game.id, [{ path: 'keep.png', content: await image(4, 4) }]);
    const cases: { name: string; files: { path: string; content: Buffer | string }[]; status: number }[] = [
      { name: 'parent path', files: [{ path: '../evil.js', content: 'x' }], status: 422 },
      { name: 'absolute path', files: [{ path: '/etc/passwd', content: 'x' }], status: 422 },
      { name: 'text named .png', files: [{ path: 'fake.png', content: 'just text' }], status: 422 },
      { name: 'an empty image', files: [{ path: 'empty.png', content: '' }], status: 422 },
      {
        name: 'over the size limit',
        files: [{ path: 'big.bin', content: Buffer.alloc(200_001, 1) }],
        status: 413,
      },
      {
        name: 'a good file with a bad one',
        files: [
          { path: 'good.js', content: 'ok' },
          { path: 'bad.png', content: 'not a png' },
        ],
        status: 422,
      },
    ];
    for (const c of cases) {
      const response = await upload(game.id, c.files);
      expect(response.statusCode, c.name).toBe(c.status);
      const error = errorOf(response);
      expect(error.details?.[0]?.message, c.name).toBeTruthy();
    }
    expect((await filesOf(game.id)).map((f) => f.path)).toEqual(['keep.png']);
  });

  it('refuses an image over the pixel limit', async () => {
    const game = await newGame();
    // 8000 x 8000 = 64 M pixels, over the 40 M limit; a flat PNG of that size is only a few hundred KB.
    const huge = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: 'white' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const big = await createTestApp({ maxFileSizeBytes: 10_000_000 });
    try {
      const bigAdmin = await createUser(big, RoleType.Admin);
      const created = await call(big, 'POST', '/api/games', {
        token: bigAdmin.token,
        payload: { name: 'Huge', description: 'x', width: 480, height: 640 },
      });
      const response = await big.app.inject({
        method: 'POST',
        url: `/api/game/upload/${created.json<Game>().id}`,
        headers: { authorization: `Bearer ${bigAdmin.token}` },
        payload: form([{ path: 'huge.png', content: huge }]),
      });
      expect(response.statusCode).toBe(422);
      expect(errorOf(response).details?.[0]?.message).toContain('at most');
    } finally {
      await big.close();
    }
    expect((await filesOf(game.id)).length).toBe(0);
  });

  it('refuses 1001 files in one upload and stores none of them', async () => {
    const game = await newGame();
    const files = Array.from({ length: 1001 }, (_, i) => ({ path: `f/${i}.txt`, content: `${i}` }));
    const response = await upload(game.id, files);
    expect(response.statusCode).toBe(413);
    expect(errorOf(response).message).toContain('1000');
    expect(await filesOf(game.id)).toEqual([]);
  });

  it("[API-7][WB-6] a game's file list is open to admins and to users with an active assignment of it, 404 to others", async () => {
    const game = await newGame('Assigned Files');
    expect((await upload(game.id, [{ path: 'img/a.png', content: await image(40, 30) }])).statusCode).toBe(
      200,
    );
    const artist = await createUser(t, RoleType.User);
    const url = `/api/games/${game.id}/files`;
    expect((await call(t, 'GET', url, { token: artist.token })).statusCode).toBe(404);
    expect((await call(t, 'GET', url)).statusCode).toBe(401);

    const assigned = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 10 },
    });
    expect(assigned.statusCode).toBe(201);
    const list = await call(t, 'GET', url, { token: artist.token });
    expect(list.statusCode).toBe(200);
    expect(list.json<GameFile[]>().map((f) => [f.path, f.width, f.height])).toEqual([['img/a.png', 40, 30]]);

    const userGameId = assigned.json<{ id: number }>().id;
    expect(
      (await call(t, 'DELETE', `/api/user-games/${userGameId}/changeActivity`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect((await call(t, 'GET', url, { token: artist.token })).statusCode).toBe(404);
    expect((await call(t, 'GET', url, { token: user.token })).statusCode).toBe(404);
  });

  it('[API-7] users and demo users get 403 and anonymous callers 401 on every games call', async () => {
    const game = await newGame();
    const demo = await createUser(t, RoleType.Demo);
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/games/filter', {}],
      ['POST', '/api/games', { name: 'x', description: 'y', width: 300, height: 400 }],
      ['GET', `/api/games/${game.id}`],
      [
        'PATCH',
        `/api/games/${game.id}`,
        { name: 'x', description: 'y', width: 300, height: 400, gameStatusTypeId: 1, isActive: true },
      ],
      ['DELETE', `/api/games/${game.id}`],
      ['PATCH', `/api/games/${game.id}/files/1/index`],
      ['PATCH', `/api/games/${game.id}/files/1/splash`],
      ['DELETE', `/api/games/${game.id}/files/1/`],
      ['POST', `/api/game/upload/${game.id}`],
    ];
    for (const [method, url, payload] of calls) {
      for (const [who, token, status] of [
        ['user', user.token, 403],
        ['demo', demo.token, 403],
        ['anonymous', undefined, 401],
      ] as const) {
        const response = await call(t, method as 'GET', url, { token, payload });
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(status);
      }
    }
    expect((await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).statusCode).toBe(200);
  });
});
