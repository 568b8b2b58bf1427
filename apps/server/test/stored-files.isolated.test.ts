import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  RoleType,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import type * as Variants from '../src/lib/images/variants';
import { previewSourceOf, withPreviews } from '../src/lib/images/image-previews';
import { variantKey } from '../src/lib/images/copy-keys';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  storedKeys as storedKeysOf,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

// The copies of an image named gate.png wait while `gate.hold` is pending, so a test can act while a
// generation is under way.
const gate = vi.hoisted(() => ({
  hold: undefined as Promise<void> | undefined,
  reached: undefined as (() => void) | undefined,
}));
vi.mock('../src/lib/images/variants', async (importOriginal) => {
  const actual = await importOriginal<typeof Variants>();
  return {
    ...actual,
    makeCopies: async (...args: Parameters<typeof actual.makeCopies>) => {
      if (args[1].endsWith('gate.png') && gate.hold) {
        gate.reached?.();
        await gate.hold;
      }
      return actual.makeCopies(...args);
    },
    // Generation makes the copies with their previews.
    makeCopiesWithPreviews: async (...args: Parameters<typeof actual.makeCopiesWithPreviews>) => {
      if (args[1].endsWith('gate.png') && gate.hold) {
        gate.reached?.();
        await gate.hold;
      }
      return actual.makeCopiesWithPreviews(...args);
    },
  };
});

const png = solidPng;

describe(`every stored object is accounted for on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  const filesDir = () => join(t.config.dataDir, 'files');

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t.close());

  /** Every file under DATA_DIR/files, writes in progress (.partial) included, as storage keys. */
  const storedKeys = () => storedKeysOf(t);

  /** The keys the database points to: game files and their generated copies, version files, helper files, history entries, and their previews. */
  async function referencedKeys(): Promise<Set<string>> {
    const db = t.database.db;
    const keys = new Set<string>();
    for (const { storageKey } of await db.selectFrom('gameFiles').select('storageKey').execute()) {
      keys.add(storageKey).add(variantKey(storageKey, 'skeleton')).add(variantKey(storageKey, 'watermark'));
    }
    for (const table of ['versionFiles', 'helperFiles', 'versionFileHistory'] as const) {
      for (const { storageKey } of await db.selectFrom(table).select('storageKey').execute())
        keys.add(storageKey);
    }
    // Any of them may have previews beside it (decision 0038).
    return new Set(withPreviews([...keys]));
  }

  async function expectEveryObjectAccountedFor(): Promise<void> {
    const referenced = await referencedKeys();
    expect(storedKeys().filter((key) => !referenced.has(key))).toEqual([]);
  }

  /** Resolves once `condition` holds (checked every few milliseconds); a wait, not a timing assertion. */
  async function until(condition: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 2000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    if (!condition()) throw new Error(`never happened: ${what}`);
  }

  const writingUnder = (folder: string) => () =>
    existsSync(join(filesDir(), folder)) &&
    readdirSync(join(filesDir(), folder)).some((name) => name.endsWith('.partial'));

  /**
   * A one-file multipart upload whose body arrives in two halves: `meanwhile` runs once the server is
   * streaming the file into storage (its .partial file exists under `stagedIn`), the second half after it.
   */
  async function uploadInterrupted(
    url: string,
    token: string,
    file: { path: string; content: Buffer },
    stagedIn: string,
    meanwhile: () => Promise<void>,
  ): Promise<LightMyRequestResponse> {
    const boundary = `----reskin-${randomBytes(8).toString('hex')}`;
    const body = new PassThrough();
    const response = t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    const name = file.path.split('/').pop()!;
    body.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="fullPath"\r\n\r\n${file.path}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const half = Math.floor(file.content.length / 2);
    body.write(file.content.subarray(0, half));
    await until(writingUnder(stagedIn), `an upload streaming into ${stagedIn}`);
    await meanwhile();
    body.end(Buffer.concat([file.content.subarray(half), Buffer.from(`\r\n--${boundary}--\r\n`)]));
    return response;
  }

  async function upload(
    url: string,
    files: { path: string; content: Buffer | string }[],
  ): Promise<LightMyRequestResponse> {
    const body = new FormData();
    for (const file of files) {
      body.append('fullPath', file.path);
      body.append('file', new Blob([file.content]), file.path);
    }
    return t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
  }

  /** A game with these files and its index marked; generated (and waited for) unless `generate` is false. */
  async function gameWith(
    name: string,
    files: { path: string; content: Buffer | string }[],
    generate = true,
  ): Promise<{ game: Game; files: GameFile[] }> {
    const game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name, description: 'd', width: 640, height: 480 },
      })
    ).json<Game>();
    const uploaded = await upload(`/api/game/upload/${game.id}`, files);
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
    if (generate) {
      expect(
        (await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token })).statusCode,
      ).toBe(200);
      await t.generation.idle();
    }
    return { game, files: list };
  }

  async function assign(user: TestUser, gameId: number): Promise<UserGame> {
    const response = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: user.id, gameId, userGameTypeId: 1, jobPrice: 1 },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<UserGame>();
  }

  async function version(user: TestUser, userGame: UserGame): Promise<GameVersion> {
    const response = await call(t, 'POST', '/api/game-versions', {
      token: user.token,
      payload: {
        name: 'Try',
        description: 'A new look',
        gameId: userGame.gameId,
        userGamesId: userGame.id,
        isLocked: false,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<GameVersion>();
  }

  async function replace(user: TestUser, versionId: number, fileId: number, content: Buffer): Promise<void> {
    const body = new FormData();
    body.append('file', new Blob([content]), 'replacement.png');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${versionId}/${fileId}`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const storedUnder = (prefix: string) => storedKeys().filter((key) => key.startsWith(prefix));

  it('deletes of games, user-games, users and versions, also mid-upload and mid-generation, leave no object behind', async () => {
    const [artist, other] = [await createUser(t), await createUser(t)];
    const hero = await png(40, 30, 'orange');
    const kept = await gameWith('Kept', [
      { path: 'index.html', content: '<canvas>' },
      { path: 'img/hero.png', content: hero },
      { path: 'main.js', content: 'start()' },
    ]);
    const heroId = kept.files.find((f) => f.path === 'img/hero.png')!.fileId;
    expect(
      (await upload(`/api/games/${kept.game.id}/psd-files/`, [{ path: 'hero.psd', content: 'PSD' }]))
        .statusCode,
    ).toBe(200);
    const doomed = await gameWith('Doomed', [
      { path: 'index.html', content: '<canvas>' },
      { path: 'a.png', content: await png(10, 10, 'red') },
      { path: 'b.png', content: await png(12, 12, 'blue') },
    ]);
    expect(
      (await upload(`/api/games/${doomed.game.id}/psd-files/`, [{ path: 'a.psd', content: 'PSD' }]))
        .statusCode,
    ).toBe(200);

    const artistKept = await assign(artist, kept.game.id);
    const otherKept = await assign(other, kept.game.id);
    const otherDoomed = await assign(other, doomed.game.id);
    const artistDone = await version(artist, artistKept);
    await replace(artist, artistDone.id, heroId, await png(40, 30, 'green'));
    const artistBusy = await version(artist, artistKept);
    const otherDone = await version(other, otherKept);
    await replace(other, otherDone.id, heroId, await png(40, 30, 'purple'));
    const otherDeleted = await version(other, otherKept);
    await replace(other, otherDeleted.id, heroId, await png(40, 30, 'black'));
    const otherBusy = await version(other, otherKept);
    const otherOnDoomed = await version(other, otherDoomed);
    await replace(
      other,
      otherOnDoomed.id,
      doomed.files.find((f) => f.path === 'a.png')!.fileId,
      await png(10, 10, 'white'),
    );
    const otherBusyOnDoomed = await version(other, otherDoomed);
    expect(storedUnder(`versions/${otherDeleted.id}/`)).toHaveLength(1);

    // A version with a replaced file.
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${otherDeleted.id}`, { token: other.token })).statusCode,
    ).toBe(200);
    expect(storedUnder(`versions/${otherDeleted.id}/`)).toEqual([]);

    // A version, while a replacement for it streams in.
    const intoDeletedVersion = await uploadInterrupted(
      `/api/game-version/upload/${otherBusy.id}/${heroId}`,
      other.token,
      { path: 'img/hero.png', content: await png(40, 30, 'yellow') },
      `versions/${otherBusy.id}`,
      async () =>
        expect(
          (await call(t, 'DELETE', `/api/game-versions/${otherBusy.id}`, { token: admin.token })).statusCode,
        ).toBe(200),
    );
    expect(intoDeletedVersion.statusCode, intoDeletedVersion.body).toBe(404);

    // A user-game, while a replacement for one of its versions streams in.
    const intoDeletedUserGame = await uploadInterrupted(
      `/api/game-version/upload/${otherBusyOnDoomed.id}/${doomed.files.find((f) => f.path === 'b.png')!.fileId}`,
      other.token,
      { path: 'b.png', content: await png(12, 12, 'yellow') },
      `versions/${otherBusyOnDoomed.id}`,
      async () =>
        expect(
          (await call(t, 'DELETE', `/api/user-games/${otherDoomed.id}`, { token: admin.token })).statusCode,
        ).toBe(200),
    );
    expect(intoDeletedUserGame.statusCode, intoDeletedUserGame.body).toBe(404);
    expect(storedUnder(`versions/${otherOnDoomed.id}/`)).toEqual([]);

    // A user, while a replacement for their version streams in; their finished version goes too.
    const fromDeletedUser = await uploadInterrupted(
      `/api/game-version/upload/${artistBusy.id}/${heroId}`,
      artist.token,
      { path: 'img/hero.png', content: await png(40, 30, 'cyan') },
      `versions/${artistBusy.id}`,
      async () =>
        expect(
          (await call(t, 'DELETE', `/api/user/delete/${artist.id}`, { token: admin.token })).statusCode,
        ).toBe(204),
    );
    expect(fromDeletedUser.statusCode, fromDeletedUser.body).toBe(404);
    expect(storedUnder(`versions/${artistDone.id}/`)).toEqual([]);

    // A game (generated, with helper files and a version of its own), while a helper file streams in.
    const intoDeletedGame = await uploadInterrupted(
      `/api/games/${doomed.game.id}/psd-files/`,
      admin.token,
      { path: 'b.psd', content: randomBytes(256 * 1024) },
      `games/${doomed.game.id}/helpers`,
      async () =>
        expect(
          (await call(t, 'DELETE', `/api/games/${doomed.game.id}`, { token: admin.token })).statusCode,
        ).toBe(200),
    );
    expect(intoDeletedGame.statusCode, intoDeletedGame.body).toBe(404);
    expect(storedUnder(`games/${doomed.game.id}/`)).toEqual([]);

    // A game, while a game file streams in.
    const uploading = await gameWith('Uploading', [{ path: 'index.html', content: '<canvas>' }], false);
    const intoUploadingGame = await uploadInterrupted(
      `/api/game/upload/${uploading.game.id}`,
      admin.token,
      { path: 'data/level.bin', content: randomBytes(256 * 1024) },
      `games/${uploading.game.id}/files`,
      async () =>
        expect(
          (await call(t, 'DELETE', `/api/games/${uploading.game.id}`, { token: admin.token })).statusCode,
        ).toBe(200),
    );
    expect(intoUploadingGame.statusCode, intoUploadingGame.body).toBe(404);
    expect(storedUnder(`games/${uploading.game.id}/`)).toEqual([]);

    // A game, while it is being generated: the copies in the making are not left behind.
    const generating = await gameWith(
      'Generating',
      [
        { path: 'index.html', content: '<canvas>' },
        { path: 'gate.png', content: await png(30, 30, 'red') },
        ...(await Promise.all(
          [1, 2, 3, 4, 5, 6].map(async (n) => ({
            path: `img/${n}.png`,
            content: await png(20 + n, 20, 'blue'),
          })),
        )),
      ],
      false,
    );
    let release!: () => void;
    gate.hold = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (gate.reached = resolve));
    try {
      expect(
        (await call(t, 'GET', `/api/games/${generating.game.id}/generate`, { token: admin.token }))
          .statusCode,
      ).toBe(200);
      await reached;
      expect(
        (await call(t, 'DELETE', `/api/games/${generating.game.id}`, { token: admin.token })).statusCode,
      ).toBe(200);
    } finally {
      release();
      gate.hold = undefined;
    }
    await t.generation.idle();
    expect(storedUnder(`games/${generating.game.id}/`)).toEqual([]);

    await expectEveryObjectAccountedFor();
    // What was kept is all there: the kept game with its copies and helper file, the other user's version.
    expect((await referencedKeys()).size).toBeGreaterThan(0);
    for (const key of await referencedKeys()) {
      if (key.includes('.skeleton.') || key.includes('.watermark.') || previewSourceOf(key)) continue;
      expect(storedKeys()).toContain(key);
    }
    expect(storedUnder(`versions/${otherDone.id}/`)).toHaveLength(1);
    expect(storedUnder(`games/${kept.game.id}/helpers/`)).toHaveLength(1);
    const heroKey = (
      await t.database.db
        .selectFrom('gameFiles')
        .select('storageKey')
        .where('gameId', '=', kept.game.id)
        .where('fileId', '=', heroId)
        .executeTakeFirstOrThrow()
    ).storageKey;
    expect(storedKeys()).toEqual(
      expect.arrayContaining([variantKey(heroKey, 'skeleton'), variantKey(heroKey, 'watermark')]),
    );
  });

  it('a helper-file upload with one bad file stores nothing and keeps the file it would have replaced', async () => {
    const { game } = await gameWith('Helpers', [{ path: 'index.html', content: '<canvas>' }], false);
    const url = `/api/games/${game.id}/psd-files/`;
    expect((await upload(url, [{ path: 'guide.txt', content: 'v1' }])).statusCode).toBe(200);
    const before = storedUnder(`games/${game.id}/helpers/`);
    expect(before).toHaveLength(1);

    const refusals = [
      [
        { path: 'guide.txt', content: 'v2' },
        { path: 'new.psd', content: 'PSD' },
        { path: '../escape.txt', content: 'x' },
      ],
      [
        { path: 'new.psd', content: 'PSD' },
        { path: 'empty.txt', content: '' },
      ],
      [
        { path: 'twice.txt', content: '1' },
        { path: 'twice.txt', content: '2' },
      ],
    ];
    for (const files of refusals) {
      const refused = await upload(url, files);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(errorOf(refused).details?.length).toBeGreaterThan(0);
    }
    expect(storedUnder(`games/${game.id}/helpers/`)).toEqual(before);
    const list = (await call(t, 'GET', url, { token: admin.token })).json<{
      files: { name: string; url: string }[];
    }>();
    expect(list.files.map((f) => f.name)).toEqual(['guide.txt']);
    expect((await t.app.inject({ method: 'GET', url: list.files[0]!.url })).body).toBe('v1');
    await expectEveryObjectAccountedFor();
  });

  it('an upload that has not recorded its files 50 minutes after it began is refused and stores nothing', async () => {
    // The services update takes unrecorded objects older than an hour for orphans: an upload must not be slower.
    const { game } = await gameWith('Slow', [{ path: 'index.html', content: '<canvas>' }], false);
    const before = storedUnder(`games/${game.id}/`);
    for (const [url, folder] of [
      [`/api/games/${game.id}/psd-files/`, `games/${game.id}/helpers`],
      [`/api/game/upload/${game.id}`, `games/${game.id}/files`],
    ] as const) {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const slow = await uploadInterrupted(
          url,
          admin.token,
          { path: 'big.psd', content: randomBytes(64 * 1024) },
          folder,
          async () => {
            vi.setSystemTime(Date.now() + 51 * 60_000);
          },
        );
        expect(slow.statusCode, slow.body).toBe(408);
        expect(errorOf(slow).code).toBe('UPLOAD_TOO_SLOW');
      } finally {
        vi.useRealTimers();
      }
    }
    expect(storedUnder(`games/${game.id}/`)).toEqual(before);
  });

  it('a stored object that has gone missing fails its request, and the server keeps serving', async () => {
    const artist = await createUser(t);
    const { game, files } = await gameWith('Lossy', [
      { path: 'index.html', content: '<canvas>' },
      { path: 'a.png', content: await png(10, 10, 'red') },
      { path: 'b.png', content: await png(10, 10, 'blue') },
    ]);
    const userGame = await assign(artist, game.id);
    const lossy = await version(artist, userGame);
    const healthy = await version(artist, userGame);
    for (const v of [lossy, healthy]) {
      for (const file of files.filter((f) => f.path.endsWith('.png')))
        await replace(artist, v.id, file.fileId, await png(10, 10, 'green'));
    }
    const [lost] = storedUnder(`versions/${lossy.id}/`);
    rmSync(join(filesDir(), ...lost!.split('/')));

    // Before, yazl's unhandled 'error' ended the process here.
    const zip = await call(t, 'GET', `/api/files/${lossy.id}/${game.id}/files.zip`, { token: artist.token });
    expect(zip.statusCode).toBe(500);
    expect(errorOf(zip).message).toBe('Internal server error.');
    expect((await call(t, 'GET', '/api/health')).statusCode).toBe(200);
    const good = await call(t, 'GET', `/api/files/${healthy.id}/${game.id}/files.zip`, {
      token: artist.token,
    });
    expect(good.statusCode).toBe(200);
    expect(good.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // A helper file and a game file on the play origin: an error answer, never a crash.
    expect(
      (await upload(`/api/games/${game.id}/psd-files/`, [{ path: 'gone.psd', content: 'PSD' }])).statusCode,
    ).toBe(200);
    const [helperKey] = storedUnder(`games/${game.id}/helpers/`);
    rmSync(join(filesDir(), ...helperKey!.split('/')));
    const helpers = (await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: admin.token })).json<{
      files: { url: string }[];
    }>();
    expect((await t.app.inject({ method: 'GET', url: helpers.files[0]!.url })).statusCode).toBe(500);

    const indexKey = (
      await t.database.db
        .selectFrom('gameFiles')
        .select('storageKey')
        .where('gameId', '=', game.id)
        .where('path', '=', 'index.html')
        .executeTakeFirstOrThrow()
    ).storageKey;
    rmSync(join(filesDir(), ...indexKey.split('/')));
    const { orjFile } = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
    ).json<GamePath>();
    const play = await t.playApp.inject({ method: 'GET', url: new URL(orjFile).pathname });
    expect(play.statusCode).toBe(404);
    expect(
      (
        await t.playApp.inject({
          method: 'GET',
          url: new URL(orjFile).pathname.replace('index.html', 'a.png'),
        })
      ).statusCode,
    ).toBe(200);
    expect((await call(t, 'GET', '/api/health')).statusCode).toBe(200);
  });
});
