import { statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GameStatus,
  RoleType,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
  type VersionFile,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { copyPreviewKeys, variantKey } from '../src/lib/images/copy-keys';
import {
  call,
  createTestApp,
  createUser,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

/**
 * Live games (decision 0024): a Ready game stays Ready and playable while an admin changes its files;
 * the play origin serves a replaced image's previous copies until the incremental generation has made the new
 * ones, and a blank (never the original) for an image with none yet.
 */
describe(`[GAM-4] live games on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let release: (() => void) | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t);
  });
  afterEach(() => {
    release?.();
    release = undefined;
  });
  afterAll(async () => t.close());

  const get = (url: string) => t.playApp.inject({ method: 'GET', url: new URL(url).pathname });

  /** Holds every incremental generation (a 'copies' job) until the returned release is called; Gen. runs. */
  function holdCopies(): () => void {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const runSlice = t.generation.runSlice.bind(t.generation);
    const spy = vi.spyOn(t.generation, 'runSlice').mockImplementation(async (gameId, slice, kind) => {
      if (kind === 'copies') await gate;
      return runSlice(gameId, slice, kind);
    });
    release = () => {
      spy.mockRestore();
      open();
    };
    return release;
  }

  async function upload(gameId: number, files: { path: string; content: Buffer | string }[]) {
    const response = await call(t, 'POST', `/api/game/upload/${gameId}`, {
      token: admin.token,
      payload: filesForm(files),
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const gameOf = async (id: number) =>
    (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 400; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('timed out');
  }

  async function readyGame(name: string, files: { path: string; content: Buffer | string }[]): Promise<Game> {
    const game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name, description: 'x', width: 480, height: 640 },
      })
    ).json<Game>();
    await upload(game.id, [{ path: 'index.html', content: '<!doctype html><img src="a.png">' }, ...files]);
    expect((await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token })).statusCode).toBe(
      200,
    );
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
    return waitFor(
      () => gameOf(game.id),
      (now) => now.gameStatusTypeId === GameStatus.Ready,
    );
  }

  async function rowOf(gameId: number, path: string) {
    return t.database.db
      .selectFrom('gameFiles')
      .select(['storageKey', 'copiesKey'])
      .where('gameId', '=', gameId)
      .where('path', '=', path)
      .executeTakeFirstOrThrow();
  }

  /** One path's URLs in the artist's watermarked and skeleton views and in the admin's original view. */
  async function viewUrls(gameId: number, path: string) {
    const mine = (
      await call(t, 'GET', `/api/games/${gameId}/path/`, { token: artist.token })
    ).json<GamePath>();
    const admins = (
      await call(t, 'GET', `/api/games/${gameId}/path/`, { token: admin.token })
    ).json<GamePath>();
    return {
      skeleton: mine.emtFile.replace(/index\.html$/, path),
      watermark: mine.wtmFile.replace(/index\.html$/, path),
      original: admins.wtmFile.replace(/index\.html$/, path),
    };
  }

  it('a replace on a Ready game keeps it Ready; the old copies are served until the new ones exist, then the new ones', async () => {
    const game = await readyGame('Live replace', [
      { path: 'a.png', content: await solidPng(64, 48, 'orange') },
      { path: 'b.png', content: await solidPng(32, 32, 'blue') },
    ]);
    expect(game).toMatchObject({ copiesCurrent: 2, copiesTotal: 2 });
    const urls = await viewUrls(game.id, 'a.png');
    const before = await get(urls.watermark);
    expect(before.statusCode).toBe(200);
    const oldKey = (await rowOf(game.id, 'a.png')).storageKey;

    const letGo = holdCopies();
    const replacement = await solidPng(64, 48, 'green');
    await upload(game.id, [{ path: 'a.png', content: replacement }]);
    expect(await gameOf(game.id)).toMatchObject({
      gameStatusTypeId: GameStatus.Ready,
      copiesCurrent: 1,
      copiesTotal: 2,
    });
    // The list says it too (one aggregate for the page).
    const listed = (
      await call(t, 'POST', '/api/games/filter', {
        token: admin.token,
        payload: { where: { id: game.id }, fields: ['id', 'gameStatusTypeId'] },
      })
    ).json<Partial<Game>[]>();
    expect(listed[0]).toMatchObject({ gameStatusTypeId: GameStatus.Ready, copiesCurrent: 1, copiesTotal: 2 });

    const during = await get(urls.watermark);
    expect(during.statusCode).toBe(200);
    expect(during.headers.etag).toBe(before.headers.etag);
    expect(during.rawPayload.equals(before.rawPayload)).toBe(true);
    expect((await get(urls.skeleton)).statusCode).toBe(200);
    // The original view shows the new content at once.
    expect((await get(urls.original)).rawPayload.equals(replacement)).toBe(true);
    expect((await call(t, 'GET', `/api/games/${game.id}/path/`, { token: artist.token })).statusCode).toBe(
      200,
    );

    letGo();
    await t.generation.idle();
    const after = await waitFor(
      () => get(urls.watermark),
      (answer) => answer.headers.etag !== before.headers.etag,
    );
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
    const { data, info } = await sharp(after.rawPayload).raw().toBuffer({ resolveWithObject: true });
    // Green shows through the watermark (the old copy was orange: red channel high).
    expect(data[info.channels * 5 + 1]!).toBeGreaterThan(data[info.channels * 5]!);
    expect(await gameOf(game.id)).toMatchObject({
      gameStatusTypeId: GameStatus.Ready,
      copiesCurrent: 2,
      copiesTotal: 2,
    });
    const row = await rowOf(game.id, 'a.png');
    expect(row.copiesKey).toBe(row.storageKey);
    // The old content's original and copies are gone.
    const keys = storedKeys(t);
    for (const key of [oldKey, variantKey(oldKey, 'skeleton'), variantKey(oldKey, 'watermark')])
      expect(keys).not.toContain(key);
  });

  it('a new image is served as a blank of its size in the copies views (never the original) until its copies exist', async () => {
    const game = await readyGame('Live new', [{ path: 'a.png', content: await solidPng(16, 16, 'red') }]);
    const letGo = holdCopies();
    const original = await solidPng(40, 30, 'orange');
    await upload(game.id, [{ path: 'new/c.png', content: original }]);
    expect(await gameOf(game.id)).toMatchObject({
      gameStatusTypeId: GameStatus.Ready,
      copiesCurrent: 1,
      copiesTotal: 2,
    });
    const urls = await viewUrls(game.id, 'new/c.png');
    for (const url of [urls.watermark, urls.skeleton]) {
      const blank = await get(url);
      expect(blank.statusCode).toBe(200);
      expect(blank.headers['content-type']).toBe('image/png');
      expect(blank.rawPayload.equals(original)).toBe(false);
      expect(await sharp(blank.rawPayload).metadata()).toMatchObject({
        width: 40,
        height: 30,
        format: 'png',
      });
      expect((await sharp(blank.rawPayload).ensureAlpha().stats()).channels[3]!.max).toBe(0);
    }
    const blankTag = (await get(urls.watermark)).headers.etag;
    letGo();
    await t.generation.idle();
    const made = await waitFor(
      () => get(urls.watermark),
      (answer) => answer.headers.etag !== blankTag,
    );
    expect((await sharp(made.rawPayload).ensureAlpha().stats()).channels[3]!.max).toBe(255);
  });

  it("the incremental generation makes only the changed files' copies", async () => {
    const game = await readyGame('Live only changed', [
      { path: 'a.png', content: await solidPng(20, 20, 'red') },
      { path: 'b.png', content: await solidPng(20, 20, 'blue') },
    ]);
    const b = await rowOf(game.id, 'b.png');
    const copyOfB = join(t.config.dataDir, 'files', ...variantKey(b.copiesKey!, 'watermark').split('/'));
    const madeAt = statSync(copyOfB).mtimeMs;
    const runs = vi.spyOn(t.generation, 'runSlice');
    await upload(game.id, [{ path: 'a.png', content: await solidPng(20, 20, 'white') }]);
    await t.generation.idle();
    await waitFor(
      () => gameOf(game.id),
      (now) => now.copiesCurrent === 2,
    );
    expect(runs.mock.calls.every(([, , kind]) => kind === 'copies')).toBe(true);
    runs.mockRestore();
    expect(statSync(copyOfB).mtimeMs).toBe(madeAt);
    expect(await rowOf(game.id, 'b.png')).toEqual(b);
  });

  it('deleting a file with copies pending deletes its object and the copies of both its contents', async () => {
    const game = await readyGame('Live delete', [{ path: 'a.png', content: await solidPng(20, 20, 'red') }]);
    const old = await rowOf(game.id, 'a.png');
    const letGo = holdCopies();
    await upload(game.id, [{ path: 'a.png', content: await solidPng(20, 20, 'green') }]);
    const replaced = await rowOf(game.id, 'a.png');
    const fileId = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((f) => f.path === 'a.png')!.fileId;
    expect(
      (await call(t, 'DELETE', `/api/games/${game.id}/files/${fileId}`, { token: admin.token })).statusCode,
    ).toBe(200);
    letGo();
    await t.generation.idle();
    expect(await gameOf(game.id)).toMatchObject({
      gameStatusTypeId: GameStatus.Ready,
      copiesCurrent: 0,
      copiesTotal: 0,
    });
    const keys = storedKeys(t);
    for (const key of [old.storageKey, replaced.storageKey]) {
      for (const each of [key, variantKey(key, 'skeleton'), variantKey(key, 'watermark')])
        expect(keys).not.toContain(each);
    }
  });

  it("concurrent uploads to a Ready game end with every image's copies current and no copies left over", async () => {
    const game = await readyGame('Live concurrent', [
      { path: 'a.png', content: await solidPng(24, 24, 'red') },
      { path: 'b.png', content: await solidPng(24, 24, 'blue') },
    ]);
    const colours = ['green', 'white', 'black', 'yellow', 'purple', 'gray', 'pink', 'navy'];
    await Promise.all(
      colours.map(async (colour, i) =>
        upload(game.id, [
          { path: i % 2 === 0 ? 'a.png' : 'b.png', content: await solidPng(24, 24, colour) },
          { path: `more/${i}.png`, content: await solidPng(12, 12, colour) },
        ]),
      ),
    );
    const done = await waitFor(
      () => gameOf(game.id),
      (now) => now.copiesCurrent === now.copiesTotal,
    );
    expect(done).toMatchObject({ gameStatusTypeId: GameStatus.Ready, copiesTotal: 2 + colours.length });
    await t.generation.idle();
    const rows = await t.database.db
      .selectFrom('gameFiles')
      .select(['storageKey', 'copiesKey', 'width'])
      .where('gameId', '=', game.id)
      .execute();
    const keys = storedKeys(t).filter((key) => key.startsWith(`games/${game.id}/`));
    const expected = rows.flatMap((row) =>
      row.width === null
        ? [row.storageKey]
        : [
            row.storageKey,
            variantKey(row.storageKey, 'skeleton'),
            variantKey(row.storageKey, 'watermark'),
            ...copyPreviewKeys(row.storageKey),
          ],
    );
    expect(keys.sort()).toEqual(expected.sort());
    for (const row of rows) if (row.width !== null) expect(row.copiesKey).toBe(row.storageKey);
  });

  it("a game image replaced with another pixel size (a GIF) flags the versions' replacements that no longer fit", async () => {
    const gif = (width: number, height: number, colour: string) =>
      sharp({ create: { width, height, channels: 3, background: colour } })
        .gif()
        .toBuffer();
    const game = await readyGame('Live fits', [
      { path: 'a.gif', content: await gif(20, 20, 'red') },
      { path: 'b.gif', content: await gif(10, 10, 'red') },
    ]);
    const userGame = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token }))
      .json<UserGame[]>()
      .find((ug) => ug.gameId === game.id)!;
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: {
        name: 'Fits',
        description: 'Fits test',
        gameId: game.id,
        userGamesId: userGame.id,
        isLocked: false,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const version = created.json<GameVersion>();
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: artist.token })).json<
      GameFile[]
    >();
    for (const [path, size] of [
      ['a.gif', 20],
      ['b.gif', 10],
    ] as const) {
      const replaced = await call(
        t,
        'POST',
        `/api/game-version/upload/${version.id}/${files.find((f) => f.path === path)!.fileId}`,
        {
          token: artist.token,
          payload: filesForm([{ path, content: await gif(size, size, 'blue') }]),
        },
      );
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(replaced.json<VersionFile>().fits).toBe(true);
    }
    await upload(game.id, [{ path: 'a.gif', content: await gif(30, 20, 'green') }]);
    expect((await gameOf(game.id)).gameStatusTypeId).toBe(GameStatus.Ready);
    const listed = (
      await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })
    ).json<VersionFile[]>();
    expect(listed.map(({ path, fits }) => [path, fits])).toEqual([
      ['a.gif', false],
      ['b.gif', true],
    ]);
  });
});
