import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  validationMessages,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
  type VersionFile,
} from '@reskin/contract';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  login,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';
import { readZip } from './support/zip-entries';

const sfx = (name: string) =>
  readFileSync(new URL(`../sample-game/star-catcher/assets/sfx/${name}`, import.meta.url));
const png = solidPng;

describe(`[API-2][API-4] user-games and game versions on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let other: TestUser;
  let demo: TestUser;
  let game: Game;
  let otherGame: Game;
  let files: GameFile[];
  let userGame: UserGame;
  const fileOf = (path: string) => files.find((f) => f.path === path)!;

  async function readyGame(
    name: string,
    upload: { path: string; content: Buffer | string }[],
  ): Promise<Game> {
    const created = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name, description: 'd', width: 640, height: 480 },
      })
    ).json<Game>();
    const body = new FormData();
    for (const file of upload) {
      body.append('fullPath', file.path);
      body.append('file', new Blob([file.content]), file.path);
    }
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/game/upload/${created.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: body,
        })
      ).statusCode,
    ).toBe(200);
    const list = (await call(t, 'GET', `/api/games/${created.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(
      t,
      'PATCH',
      `/api/games/${created.id}/files/${list.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${created.id}/generate`, { token: admin.token });
    for (let i = 0; i < 200; i++) {
      const now = (await call(t, 'GET', `/api/games/${created.id}`, { token: admin.token })).json<Game>();
      if (now.gameStatusTypeId === GameStatus.Ready) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('not ready');
  }

  async function assign(user: TestUser, gameId: number, type = 1): Promise<UserGame> {
    const response = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: user.id, gameId, userGameTypeId: type, jobPrice: 120.5 },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<UserGame>();
  }

  async function createVersion(user: TestUser, ug: UserGame, name = 'First try'): Promise<GameVersion> {
    const response = await call(t, 'POST', '/api/game-versions', {
      token: user.token,
      payload: { name, description: 'My new look', gameId: ug.gameId, userGamesId: ug.id, isLocked: false },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<GameVersion>();
  }

  async function upload(
    user: TestUser,
    versionId: number,
    fileId: number,
    content: Buffer | string,
    name = 'file',
  ) {
    const body = new FormData();
    body.append('fullPath', name);
    body.append('file', new Blob([content]), name);
    return t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${versionId}/${fileId}`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: body,
    });
  }

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist, other, demo] = [
      await createUser(t, RoleType.Admin),
      await createUser(t),
      await createUser(t),
      await createUser(t, RoleType.Demo),
    ];
    game = await readyGame('Versioned', [
      { path: 'index.html', content: '<canvas></canvas>' },
      { path: 'img/hero.png', content: await png(40, 30, 'orange') },
      { path: 'sfx/jump.wav', content: sfx('catch.wav') },
      { path: 'sfx/music.ogg', content: sfx('music.ogg') },
      { path: 'main.js', content: 'start()' },
    ]);
    otherGame = await readyGame('Other', [
      { path: 'index.html', content: '<p>' },
      { path: 'x.png', content: await png(4, 4, 'red') },
    ]);
    files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<GameFile[]>();
    userGame = await assign(artist, game.id);
  });
  afterAll(async () => t.close());

  it('[API-2][API-6] user-games: create, list and filter with user and game included, edit, toggle, my-games', async () => {
    expect(userGame).toMatchObject({
      userId: artist.id,
      gameId: game.id,
      userGameTypeId: 1,
      jobPrice: 120.5,
      isActive: true,
    });
    const list = (await call(t, 'GET', '/api/user-games', { token: admin.token })).json<UserGame[]>();
    expect(list.find((ug) => ug.id === userGame.id)).toMatchObject({
      user: { id: artist.id, username: artist.username },
      game: { id: game.id, name: 'Versioned', width: 640, height: 480 },
    });

    const filtered = await call(t, 'POST', '/api/user-games/filter', {
      token: admin.token,
      payload: {
        where: { userId: artist.id },
        include: [{ relation: 'user' }, 'game'],
        fields: ['id', 'userGameTypeId'],
      },
    });
    expect(filtered.statusCode, filtered.body).toBe(200);
    const [row] = filtered.json<UserGame[]>();
    expect(Object.keys(row!).sort()).toEqual(['game', 'id', 'user', 'userGameTypeId']);
    expect(row!.user).toEqual({ id: artist.id, username: artist.username });

    for (const bad of [
      { where: { passwordHash: 'x' } },
      { include: ['secrets'] },
      { order: 'user.password ASC' },
      { fields: ['email'] },
    ]) {
      const refused = await call(t, 'POST', '/api/user-games/filter', { token: admin.token, payload: bad });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(
      (
        await call(t, 'POST', '/api/user-games', {
          token: admin.token,
          payload: { userId: 999999, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await call(t, 'POST', '/api/user-games', {
          token: admin.token,
          payload: { userId: artist.id, gameId: game.id, userGameTypeId: 3, jobPrice: 1 },
        })
      ).statusCode,
    ).toBe(422);

    const edited = await call(t, 'PUT', `/api/user-games/${userGame.id}`, {
      token: admin.token,
      payload: { userGameTypeId: 2, jobPrice: 99 },
    });
    expect(edited.json<UserGame>()).toMatchObject({ userGameTypeId: 2, jobPrice: 99 });
    await call(t, 'PUT', `/api/user-games/${userGame.id}`, {
      token: admin.token,
      payload: { userGameTypeId: 1, jobPrice: 120.5 },
    });

    const mine = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<
      (UserGame & { imageUrl: string | null })[]
    >();
    expect(mine.map((ug) => ug.id)).toEqual([userGame.id]);
    expect(mine[0]!.game).toMatchObject({ name: 'Versioned' });
    expect((await call(t, 'GET', '/api/user-games/my-games', { token: other.token })).json()).toEqual([]);

    await call(t, 'DELETE', `/api/user-games/${userGame.id}/changeActivity`, { token: admin.token });
    expect((await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json()).toEqual([]);
    await call(t, 'DELETE', `/api/user-games/${userGame.id}/changeActivity`, { token: admin.token });
    expect(
      (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<unknown[]>(),
    ).toHaveLength(1);
  });

  it('[API-4] versions: create, list, edit, path, filter, lock, activity, done, delete', async () => {
    const version = await createVersion(artist, userGame);
    expect(version).toMatchObject({
      gameId: game.id,
      userGamesId: userGame.id,
      userId: artist.id,
      isLocked: false,
      isActive: true,
      gameVersionStatusId: 1,
    });
    const listed = (
      await call(t, 'GET', `/api/game-versions/${game.id}/${userGame.id}`, { token: artist.token })
    ).json<GameVersion[]>();
    expect(listed.map((v) => v.id)).toContain(version.id);

    const edited = await call(t, 'PATCH', `/api/game-versions/${version.id}`, {
      token: artist.token,
      payload: { name: 'Renamed v', description: 'Other words' },
    });
    expect(edited.json<GameVersion>()).toMatchObject({ name: 'Renamed v' });
    const badName = await call(t, 'PATCH', `/api/game-versions/${version.id}`, {
      token: artist.token,
      payload: { name: 'x', description: 'fine text' },
    });
    expect(badName.statusCode).toBe(422);
    expect(errorOf(badName).details?.[0]?.message).toBe(validationMessages.versionName);

    const paths = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token })
    ).json<GamePath>();
    for (const url of [paths.orjFile, paths.emtFile, paths.wtmFile])
      expect(url).toMatch(/^http:\/\/play\.test\/p\/[^/]+\/index\.html$/);

    const filtered = (
      await call(t, 'POST', '/api/game-versions/filter', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id },
      })
    ).json<GameVersion[]>();
    expect(filtered.map((v) => v.id)).toContain(version.id);

    expect(
      (
        await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token })
      ).json<GameVersion>().isLocked,
    ).toBe(true);
    expect(
      (
        await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token })
      ).json<GameVersion>().isLocked,
    ).toBe(false);
    expect(
      (
        await call(t, 'DELETE', `/api/game-versions/${version.id}/changeActivity`, { token: admin.token })
      ).json<GameVersion>().isActive,
    ).toBe(false);
    expect(
      (
        await call(t, 'DELETE', `/api/game-versions/${version.id}/changeActivity`, { token: admin.token })
      ).json<GameVersion>().isActive,
    ).toBe(true);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: artist.token }))
        .statusCode,
    ).toBe(403);

    const done = await call(t, 'POST', '/api/game-versions/done', {
      token: artist.token,
      payload: { id: version.id },
    });
    expect(done.json<GameVersion>()).toMatchObject({ gameVersionStatusId: 2 });
    expect(done.json<GameVersion>().finishedAt).toBeTruthy();

    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}`, { token: artist.token })).statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token }))
        .statusCode,
    ).toBe(404);
  });

  it('[VER-2] 20 concurrent creates on a user-game with 5 versions leave exactly 6', async () => {
    const ug = await assign(artist, otherGame.id);
    for (let i = 0; i < 5; i++) await createVersion(artist, ug, `Version ${i}`);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(t, 'POST', '/api/game-versions', {
          token: artist.token,
          payload: { name: `Race ${i}`, description: 'Concurrent', gameId: otherGame.id, userGamesId: ug.id },
        }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(19);
    expect(
      (await call(t, 'GET', `/api/game-versions/${otherGame.id}/${ug.id}`, { token: artist.token })).json<
        unknown[]
      >(),
    ).toHaveLength(6);
  });

  it('[API-5][WB-6][WB-14] uploads: the right size replaces, and the version view serves the new bytes', async () => {
    const version = await createVersion(artist, userGame, 'Upload me');
    const replacement = await png(40, 30, 'purple');
    const ok = await upload(artist, version.id, fileOf('img/hero.png').fileId, replacement, 'hero.png');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<VersionFile>()).toMatchObject({ path: 'img/hero.png', width: 40, height: 30 });
    expect(
      (await upload(artist, version.id, fileOf('sfx/music.ogg').fileId, sfx('music.ogg'), 'music.ogg'))
        .statusCode,
    ).toBe(200);

    const listed = (
      await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })
    ).json<VersionFile[]>();
    expect(listed.map((f) => f.path).sort()).toEqual(['img/hero.png', 'sfx/music.ogg']);

    const paths = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token })
    ).json<GamePath>();
    const own = await t.playApp.inject({
      method: 'GET',
      url: new URL(paths.orjFile).pathname.replace('index.html', 'img/hero.png'),
    });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(replacement)).toBe(true);
    // A file the version did not replace comes from the watermarked view there.
    const watermarked = await t.playApp.inject({
      method: 'GET',
      url: new URL(paths.wtmFile).pathname.replace('index.html', 'img/hero.png'),
    });
    expect(watermarked.rawPayload.equals(replacement)).toBe(false);
  });

  it('[WB-6][WB-9][WB-12] bad uploads answer a clear 4xx and leave the previous file intact', async () => {
    const version = await createVersion(artist, userGame, 'Refusals');
    const good = await png(40, 30, 'green');
    await upload(artist, version.id, fileOf('img/hero.png').fileId, good, 'hero.png');
    const hero = fileOf('img/hero.png').fileId;
    const cases = [
      {
        name: 'wrong size',
        fileId: hero,
        content: await png(41, 30, 'blue'),
        status: 422,
        message: validationMessages.imageSize({ width: 40, height: 30 }, { width: 41, height: 30 }),
      },
      {
        name: 'text named .png',
        fileId: hero,
        content: Buffer.from('not an image at all'),
        status: 422,
        message: validationMessages.imageReadError,
      },
      {
        name: 'image sent as audio',
        fileId: fileOf('sfx/jump.wav').fileId,
        content: good,
        status: 422,
        message: validationMessages.notAudio,
      },
      { name: 'a script', fileId: fileOf('main.js').fileId, content: Buffer.from('x'), status: 422 },
      { name: 'a file of another game', fileId: 99999, content: good, status: 404 },
    ];
    for (const c of cases) {
      const response = await upload(artist, version.id, c.fileId, c.content);
      expect(response.statusCode, c.name).toBe(c.status);
      if (c.message) expect(errorOf(response).details?.[0]?.message, c.name).toBe(c.message);
    }
    await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token });
    const locked = await upload(artist, version.id, hero, good);
    expect(locked.statusCode).toBe(423);
    const paths = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token })
    ).json<GamePath>();
    const served = await t.playApp.inject({
      method: 'GET',
      url: new URL(paths.orjFile).pathname.replace('index.html', 'img/hero.png'),
    });
    expect(served.rawPayload.equals(good)).toBe(true);
  });

  it('[AV-5] files.zip holds exactly the replaced files at their paths, through the Authorization header or a ticket', async () => {
    const version = await createVersion(artist, userGame, 'Zip me');
    const image = await png(40, 30, 'yellow');
    await upload(artist, version.id, fileOf('img/hero.png').fileId, image);
    await upload(artist, version.id, fileOf('sfx/jump.wav').fileId, sfx('boom.wav'));
    const zip = await call(t, 'GET', `/api/files/${version.id}/${game.id}/files.zip`, { token: admin.token });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = await readZip(zip.rawPayload);
    expect([...entries.keys()].sort()).toEqual(['img/hero.png', 'sfx/jump.wav']);
    expect(entries.get('img/hero.png')!.equals(image)).toBe(true);
    expect(entries.get('sfx/jump.wav')!.equals(sfx('boom.wav'))).toBe(true);

    const { url } = (
      await call(t, 'GET', `/api/game-versions/${version.id}/zip-url`, { token: admin.token })
    ).json<{ url: string }>();
    const byTicket = await t.app.inject({ method: 'GET', url });
    expect(byTicket.statusCode).toBe(200);
    expect((await readZip(byTicket.rawPayload)).size).toBe(2);
    expect(
      (await t.app.inject({ method: 'GET', url: url.replace(/ticket=.*/, 'ticket=forged') })).statusCode,
    ).toBe(404);
  });

  it("[API-7] another user gets 404 on the first user's things, demo users cannot create versions, inactive assignments hide versions", async () => {
    const version = await createVersion(artist, userGame, 'Private');
    const hero = fileOf('img/hero.png').fileId;
    const probes = [
      ['GET', `/api/game-versions/${game.id}/${userGame.id}`],
      ['PATCH', `/api/game-versions/${version.id}`, { name: 'Stolen', description: 'Nope' }],
      ['DELETE', `/api/game-versions/${version.id}`],
      ['GET', `/api/game-versions/path/${version.id}/${game.id}`],
      ['GET', `/api/game-versions/files/${version.id}/${game.id}`],
      ['GET', `/api/files/${version.id}/${game.id}/files.zip`],
      ['GET', `/api/game-versions/${version.id}/zip-url`],
      ['POST', '/api/game-versions/done', { id: version.id }],
      [
        'POST',
        '/api/game-versions',
        { name: 'Intruder', description: 'Nope', gameId: game.id, userGamesId: userGame.id },
      ],
    ] as const;
    for (const [method, url, payload] of probes) {
      expect(
        (await call(t, method, url, { token: other.token, payload })).statusCode,
        `${method} ${url}`,
      ).toBe(404);
    }
    expect((await upload(other, version.id, hero, await png(40, 30, 'red'))).statusCode).toBe(404);
    for (const [method, url] of [
      ['POST', '/api/game-versions/filter'],
      ['DELETE', `/api/game-versions/${version.id}/changeLock`],
      ['GET', '/api/user-games'],
    ] as const) {
      expect(
        (await call(t, method, url, { token: other.token, payload: method === 'POST' ? {} : undefined }))
          .statusCode,
      ).toBe(403);
    }
    const demoGame = await assign(demo, game.id);
    const demoCreate = await call(t, 'POST', '/api/game-versions', {
      token: demo.token,
      payload: { name: 'Demo', description: 'Nope', gameId: game.id, userGamesId: demoGame.id },
    });
    expect(demoCreate.statusCode).toBe(403);

    await call(t, 'DELETE', `/api/user-games/${userGame.id}/changeActivity`, { token: admin.token });
    expect(
      (await call(t, 'GET', `/api/game-versions/${game.id}/${userGame.id}`, { token: artist.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token }))
        .statusCode,
    ).toBe(404);
    await call(t, 'DELETE', `/api/user-games/${userGame.id}/changeActivity`, { token: admin.token });
    expect(
      (await call(t, 'GET', `/api/game-versions/${game.id}/${userGame.id}`, { token: artist.token }))
        .statusCode,
    ).toBe(200);
  });

  describe('[API-7] version rules: a locked or disabled version is read-only for its artist, demo accounts change no version', () => {
    let assignment: UserGame;
    let demoAssignment: UserGame;
    beforeAll(async () => {
      // Sound Replace: the ReSkin assignments of this game exist already (one per user, game and job type).
      assignment = await assign(artist, game.id, 2);
      demoAssignment = await assign(demo, game.id, 2);
    });

    const hero = () => fileOf('img/hero.png').fileId;
    /** Every change an artist can make to a version, as a request of `user`. */
    const changes = (user: TestUser, version: GameVersion) =>
      [
        [
          'rename',
          () =>
            call(t, 'PATCH', `/api/game-versions/${version.id}`, {
              token: user.token,
              payload: { name: 'Renamed', description: 'New words' },
            }),
        ],
        ['upload', async () => upload(user, version.id, hero(), await png(40, 30, 'lime'), 'hero.png')],
        [
          'restore',
          () => call(t, 'DELETE', `/api/game-versions/${version.id}/files/${hero()}`, { token: user.token }),
        ],
        [
          'finish',
          () =>
            call(t, 'POST', '/api/game-versions/done', { token: user.token, payload: { id: version.id } }),
        ],
        ['delete', () => call(t, 'DELETE', `/api/game-versions/${version.id}`, { token: user.token })],
      ] as const;
    const current = async (version: GameVersion) =>
      (await call(t, 'GET', `/api/game-versions/${game.id}/${version.userGamesId}`, { token: admin.token }))
        .json<GameVersion[]>()
        .find((v) => v.id === version.id);

    /** A version of the artist's with the hero replaced, then locked or disabled by the reviewer. */
    async function frozenVersion(
      name: string,
      toggle: 'changeLock' | 'changeActivity',
    ): Promise<GameVersion> {
      const version = await createVersion(artist, assignment, name);
      expect(
        (await upload(artist, version.id, hero(), await png(40, 30, 'teal'), 'hero.png')).statusCode,
      ).toBe(200);
      expect(
        (await call(t, 'DELETE', `/api/game-versions/${version.id}/${toggle}`, { token: admin.token }))
          .statusCode,
      ).toBe(200);
      return version;
    }

    async function expectReadOnly(version: GameVersion, code: string) {
      const before = await current(version);
      for (const [change, send] of changes(artist, version)) {
        const response = await send();
        expect(response.statusCode, `${change}: ${response.body}`).toBe(423);
        expect(errorOf(response).code, change).toBe(code);
        expect(errorOf(response).details?.[0]?.code, change).toBe(
          code === 'VERSION_LOCKED' ? 'locked' : 'disabled',
        );
      }
      // Nothing changed: the name, the status, the replaced file and the version itself are all still there.
      expect(await current(version)).toEqual(before);
      expect(
        (await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token }))
          .json<VersionFile[]>()
          .map((f) => f.path),
      ).toEqual(['img/hero.png']);
    }

    it('a locked version refuses rename, upload, restore, finish and delete by its artist (423 VERSION_LOCKED); the reviewer still renames and deletes it', async () => {
      const version = await frozenVersion('Locked one', 'changeLock');
      await expectReadOnly(version, 'VERSION_LOCKED');
      // Reading it still works.
      expect(
        (await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token }))
          .statusCode,
      ).toBe(200);

      // The reviewer: the files stay frozen, the name and the version are theirs.
      expect(
        (await upload(admin, version.id, hero(), await png(40, 30, 'lime'), 'hero.png')).statusCode,
      ).toBe(423);
      const renamed = await call(t, 'PATCH', `/api/game-versions/${version.id}`, {
        token: admin.token,
        payload: { name: 'Reviewed', description: 'Kept words' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);

      // Unlocked, the artist changes it again.
      await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token });
      expect(
        (
          await call(t, 'PATCH', `/api/game-versions/${version.id}`, {
            token: artist.token,
            payload: { name: 'Mine again', description: 'New words' },
          })
        ).statusCode,
      ).toBe(200);
      await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token });
      expect(
        (await call(t, 'DELETE', `/api/game-versions/${version.id}`, { token: admin.token })).statusCode,
      ).toBe(200);
    });

    it('a disabled version is read-only for its artist (423 VERSION_DISABLED) until the reviewer enables it', async () => {
      const version = await frozenVersion('Disabled one', 'changeActivity');
      await expectReadOnly(version, 'VERSION_DISABLED');
      expect(
        (await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token }))
          .statusCode,
      ).toBe(200);

      await call(t, 'DELETE', `/api/game-versions/${version.id}/changeActivity`, { token: admin.token });
      const enabled = { rename: 200, upload: 200, restore: 204, finish: 200, delete: 200 };
      for (const [change, send] of changes(artist, version)) {
        const response = await send();
        expect(response.statusCode, `${change}: ${response.body}`).toBe(enabled[change]);
      }
    });

    it('a lock the reviewer sets while an upload streams in refuses it too (423), and nothing of it is kept', async () => {
      const version = await createVersion(artist, assignment, 'Locked midway');
      const boundary = 'VersionRulesBoundary';
      const body = new PassThrough();
      const answer = t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload/${version.id}/${hero()}`,
        headers: {
          authorization: `Bearer ${artist.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: body,
      });
      const image = await png(40, 30, 'navy');
      body.write(`--${boundary}\r\nContent-Disposition: form-data; name="fullPath"\r\n\r\nhero.png\r\n`);
      body.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hero.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      body.write(image.subarray(0, 10));
      // The server has passed its checks and is storing the file: the reviewer locks the version now.
      while (!storedKeys(t).some((key) => key.startsWith(`versions/${version.id}/`)))
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(
        (await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token }))
          .statusCode,
      ).toBe(200);
      body.end(Buffer.concat([image.subarray(10), Buffer.from(`\r\n--${boundary}--\r\n`)]));

      const response = await answer;
      expect(response.statusCode, response.body).toBe(423);
      expect(errorOf(response).code).toBe('VERSION_LOCKED');
      expect(
        (
          await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })
        ).json<VersionFile[]>(),
      ).toEqual([]);
      expect(storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`))).toEqual([]);
    });

    it('demo accounts cannot change versions: 403 FORBIDDEN on rename, upload, restore, finish and delete, of any id', async () => {
      // A demo account's own version (made before it became a demo account) and someone else's.
      const demoUser = await createUser(t);
      const demoGame = await assign(demoUser, game.id);
      const own = await createVersion(demoUser, demoGame, 'Before demo');
      expect((await upload(demoUser, own.id, hero(), await png(40, 30, 'teal'), 'hero.png')).statusCode).toBe(
        200,
      );
      expect(
        (await call(t, 'PUT', `/api/user/role/${demoUser.id}/${RoleType.Demo}`, { token: admin.token }))
          .statusCode,
      ).toBe(204);
      const demoToken = (await login(t, demoUser.email, demoUser.password)).json<{ token: string }>().token;
      const asDemo = { ...demoUser, token: demoToken };
      const others = await createVersion(artist, assignment, 'Not demo');

      for (const version of [own, others]) {
        for (const [change, send] of changes(asDemo, version)) {
          const response = await send();
          expect(response.statusCode, `${change} of ${version.name}: ${response.body}`).toBe(403);
          expect(errorOf(response).code).toBe('FORBIDDEN');
        }
      }
      expect(await current(own)).toMatchObject({ name: 'Before demo', gameVersionStatusId: 1 });
      const create = await call(t, 'POST', '/api/game-versions', {
        token: demo.token,
        payload: { name: 'Demo', description: 'Nope', gameId: game.id, userGamesId: demoAssignment.id },
      });
      expect(create.statusCode).toBe(403);
      expect(errorOf(create).message).toBe(errorOf(await changes(asDemo, own)[0][1]()).message);
    });
  });

  describe('Restore original: DELETE /game-versions/{versionId}/files/{fileId}', () => {
    // An assignment of its own: the ones above have their versions already.
    let assignment: UserGame;
    beforeAll(async () => {
      // The first ReSkin assignment goes (one per user, game and job type); nothing after uses it.
      expect(
        (await call(t, 'DELETE', `/api/user-games/${userGame.id}`, { token: admin.token })).statusCode,
      ).toBe(200);
      assignment = await assign(artist, game.id);
    });

    /** What the version's own view and the watermarked view of the game serve for a path. */
    async function served(version: GameVersion, path: string) {
      const paths = (
        await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token })
      ).json<GamePath>();
      const get = async (url: string) =>
        (await t.playApp.inject({ method: 'GET', url: new URL(url).pathname.replace('index.html', path) }))
          .rawPayload;
      return { own: await get(paths.orjFile), watermarked: await get(paths.wtmFile) };
    }
    const replaced = async (version: GameVersion) =>
      (await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token }))
        .json<VersionFile[]>()
        .map((f) => f.path);
    const restore = (user: TestUser, versionId: number, fileId: number) =>
      call(t, 'DELETE', `/api/game-versions/${versionId}/files/${fileId}`, { token: user.token });
    const versionKeys = (version: GameVersion) =>
      storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`));

    it('[WB-14] removes the replacement, so Play Your Version serves the watermarked original again', async () => {
      const version = await createVersion(artist, assignment, 'Restore me');
      const replacement = await png(40, 30, 'purple');
      expect(
        (await upload(artist, version.id, fileOf('img/hero.png').fileId, replacement, 'hero.png')).statusCode,
      ).toBe(200);
      expect(
        (await upload(artist, version.id, fileOf('sfx/jump.wav').fileId, sfx('boom.wav'), 'jump.wav'))
          .statusCode,
      ).toBe(200);
      const before = await served(version, 'img/hero.png');
      expect(before.own.equals(replacement)).toBe(true);
      expect(before.watermarked.equals(replacement)).toBe(false);

      const restored = await restore(artist, version.id, fileOf('img/hero.png').fileId);
      expect(restored.statusCode, restored.body).toBe(204);
      expect(restored.body).toBe('');
      const after = await served(version, 'img/hero.png');
      expect(after.own.equals(before.watermarked)).toBe(true);
      expect(await replaced(version)).toEqual(['sfx/jump.wav']);

      // A sound has no watermarked copy: the version plays the game's own sound again.
      expect((await restore(artist, version.id, fileOf('sfx/jump.wav').fileId)).statusCode).toBe(204);
      expect((await served(version, 'sfx/jump.wav')).own.equals(sfx('catch.wav'))).toBe(true);
      expect(await replaced(version)).toEqual([]);
      expect(versionKeys(version)).toEqual([]);

      const again = await restore(artist, version.id, fileOf('img/hero.png').fileId);
      expect(again.statusCode).toBe(404);
      expect(errorOf(again).code).toBe('NOT_FOUND');
    });

    it("[API-7][WB-12] 404 for someone else's version, an unknown version or file, or a file not replaced; 423 on a locked version", async () => {
      const version = await createVersion(artist, assignment, 'Keep me');
      const hero = fileOf('img/hero.png').fileId;
      const replacement = await png(40, 30, 'teal');
      await upload(artist, version.id, hero, replacement, 'hero.png');

      for (const [user, versionId, fileId, why] of [
        [other, version.id, hero, "another user's version"],
        [artist, 999999, hero, 'an unknown version'],
        [artist, version.id, 999999, 'an unknown file'],
        [artist, version.id, fileOf('main.js').fileId, 'a file the version has not replaced'],
      ] as const) {
        const response = await restore(user, versionId, fileId);
        expect(response.statusCode, why).toBe(404);
        expect(errorOf(response).code, why).toBe('NOT_FOUND');
      }

      await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token });
      for (const user of [artist, admin]) {
        const locked = await restore(user, version.id, hero);
        expect(locked.statusCode).toBe(423);
        expect(errorOf(locked).code).toBe('VERSION_LOCKED');
        expect(errorOf(locked).details?.[0]?.path).toBe('/versionId');
      }
      expect(await replaced(version)).toEqual(['img/hero.png']);
      expect((await served(version, 'img/hero.png')).own.equals(replacement)).toBe(true);

      await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token });
      expect((await restore(admin, version.id, hero)).statusCode).toBe(204);
      expect(await replaced(version)).toEqual([]);
    });

    it('a Restore original racing an upload of the same file leaves the record and the stored file together', async () => {
      const version = await createVersion(artist, assignment, 'Race me');
      const hero = fileOf('img/hero.png').fileId;
      const colours = ['red', 'blue', 'white', 'black', 'navy', 'olive'];
      await upload(artist, version.id, hero, await png(40, 30, 'gray'), 'hero.png');
      for (const colour of colours) {
        const image = await png(40, 30, colour);
        const [restored, uploaded] = await Promise.all([
          restore(artist, version.id, hero),
          upload(artist, version.id, hero, image, 'hero.png'),
        ]);
        expect(uploaded.statusCode, uploaded.body).toBe(200);
        // Either order is fine: the restore found the previous replacement or the new one.
        expect(restored.statusCode, restored.body).toBe(204);

        const rows = await t.database.db
          .selectFrom('versionFiles')
          .select('storageKey')
          .where('gameVersionId', '=', version.id)
          .execute();
        expect(versionKeys(version), colour).toEqual(rows.map((row) => row.storageKey).sort());
        const { own, watermarked } = await served(version, 'img/hero.png');
        if (rows.length === 1) expect(own.equals(image), colour).toBe(true);
        else expect(own.equals(watermarked), colour).toBe(true);
        // The next round starts from a replacement again.
        if (rows.length === 0) await upload(artist, version.id, hero, await png(40, 30, 'gray'), 'hero.png');
      }
    });
  });
});
