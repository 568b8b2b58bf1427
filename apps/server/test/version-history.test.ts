import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  historyMessages,
  type FileHistory,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
  type VersionFile,
  type VersionStorage,
} from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { readZip } from './support/zip-entries';

/**
 * The history of a version's files (decision 0034): every replacement is an entry with a copy of its
 * own, listed newest first, viewable and restorable; at most VERSION_HISTORY_LIMIT per file, oldest dropped with
 * its stored object. On PostgreSQL, uploads of one file from two app instances at once all land in the history.
 */

const colour = (i: number) => ({ r: (i * 53) % 256, g: (i * 97) % 256, b: 120, alpha: 1 });
const png = (i: number, width = 16, height = 16) =>
  sharp({ create: { width, height, channels: 4, background: colour(i) } })
    .png()
    .toBuffer();

/** A 2×1 grid of 16 px frames on a 32×16 sheet. */
const descriptor = JSON.stringify({
  frames: { a: { frame: { x: 0, y: 0, w: 16, h: 16 } }, b: { frame: { x: 16, y: 0, w: 16, h: 16 } } },
  meta: { image: 'sheet.png', size: { w: 32, h: 16 } },
});

function fileForm(content: Buffer, name = 'hero.png', frame?: string): FormData {
  const body = new FormData();
  if (frame !== undefined) body.append('frame', frame);
  body.append('file', new Blob([content]), name);
  return body;
}

describe(`the history of a version's files on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let other: TestUser;
  let demo: TestUser;
  let game: Game;
  let heroId: number;
  let sheetId: number;
  let userGame: UserGame;

  const historyUrl = (versionId: number, fileId: number) =>
    `/api/game-versions/${versionId}/files/${fileId}/history`;
  const historyOf = async (versionId: number, fileId: number, token = artist.token, app = t) => {
    const response = await call(app, 'GET', historyUrl(versionId, fileId), { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FileHistory>();
  };
  const upload = (
    versionId: number,
    fileId: number,
    content: Buffer,
    { token = artist.token, app = t } = {},
  ) =>
    app.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${versionId}/${fileId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: fileForm(content),
    });
  const restore = (versionId: number, fileId: number, entryId: number, token = artist.token) =>
    call(t, 'POST', `${historyUrl(versionId, fileId)}/${entryId}/restore`, { token });
  const newVersion = async (name: string): Promise<GameVersion> => {
    // At most 6 versions per user-game: the earlier tests' go first (their stored objects do not matter here).
    const ids = (
      await t.database.db
        .selectFrom('gameVersions')
        .select('id')
        .where('userGamesId', '=', userGame.id)
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
    if (ids.length >= 5)
      await t.database.db
        .deleteFrom('gameVersions')
        .where('id', 'in', ids.slice(0, ids.length - 4))
        .execute();
    const response = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name, description: 'History', gameId: game.id, userGamesId: userGame.id },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<GameVersion>();
  };
  /** A file as the version's play view serves it to an admin (a sheet composed on the original: decision 0049). */
  const served = async (version: GameVersion, path: string) => {
    const paths = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: admin.token })
    ).json<GamePath>();
    const response = await t.playApp.inject({
      method: 'GET',
      url: `${new URL(paths.orjFile).pathname.replace(/index\.html$/, '')}${path}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  };
  const historyKeys = (app = t) => storedKeys(app).filter((key) => key.startsWith('history/'));

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist, other, demo] = [
      await createUser(t, RoleType.Admin),
      await createUser(t),
      await createUser(t),
      await createUser(t, RoleType.Demo),
    ];
    game = await createGame(t, admin.token, { name: 'History', description: 'x', width: 480, height: 640 });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="hero.png">' },
        { path: 'hero.png', content: await png(100) },
        { path: 'sheet.png', content: await png(101, 32, 16) },
        { path: 'sheet.json', content: descriptor },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    heroId = files.find((file) => file.path === 'hero.png')!.fileId;
    sheetId = files.find((file) => file.path === 'sheet.png')!.fileId;
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((file) => file.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
    userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: demo.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('an upload, a batch row, a frame change and a restore each add an entry, newest first, with author, size, pixel size and the current one', async () => {
    const version = await newVersion('Kinds');
    expect((await historyOf(version.id, heroId)).entries).toEqual([]);
    expect((await upload(version.id, heroId, await png(1))).statusCode).toBe(200);
    const batch = new FormData();
    batch.append('path', 'export/hero.png');
    batch.append('file', new Blob([await png(2)]), 'hero.png');
    const batched = await t.app.inject({
      method: 'POST',
      url: `/api/game-versions/${version.id}/batch`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: batch,
    });
    expect(batched.statusCode, batched.body).toBe(200);
    const history = await historyOf(version.id, heroId);
    expect(history).toMatchObject({ versionId: version.id, fileId: heroId, path: 'hero.png', limit: 10 });
    expect(
      history.entries.map((entry) => [entry.how, entry.authorName, entry.width, entry.height, entry.current]),
    ).toEqual([
      ['batch', admin.username, 16, 16, true],
      ['upload', artist.username, 16, 16, false],
    ]);
    expect(history.entries[0]!.size).toBeGreaterThan(0);
    expect(Date.parse(history.entries[0]!.createdAt)).toBeGreaterThanOrEqual(
      Date.parse(history.entries[1]!.createdAt),
    );

    // A frame of a sheet: the entry is the composed sheet, the file the version serves.
    const frame = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${version.id}/${sheetId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: fileForm(await png(3), 'a.png', 'a'),
    });
    expect(frame.statusCode, frame.body).toBe(200);
    const sheetHistory = await historyOf(version.id, sheetId);
    expect(
      sheetHistory.entries.map((entry) => [entry.how, entry.width, entry.height, entry.current]),
    ).toEqual([['frame', 32, 16, true]]);
    const viewed = await t.app.inject({ method: 'GET', url: sheetHistory.entries[0]!.url });
    expect(viewed.statusCode).toBe(200);
    expect(viewed.rawPayload.equals(await served(version, 'sheet.png'))).toBe(true);

    // A restore of the first entry is a new entry naming it, and the current one.
    const first = history.entries[1]!;
    const restored = await restore(version.id, heroId, first.id);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<VersionFile>()).toMatchObject({ fileId: heroId, width: 16, height: 16 });
    const after = await historyOf(version.id, heroId);
    expect(after.entries.map((entry) => [entry.how, entry.restoredFrom, entry.current])).toEqual([
      ['restore', first.id, true],
      ['batch', null, false],
      ['upload', null, false],
    ]);
  });

  it('a restored entry is what play and the zip serve, byte for byte; Restore original adds none and keeps the history', async () => {
    const version = await newVersion('Restore');
    const one = await png(11);
    const two = await png(12);
    await upload(version.id, heroId, one);
    await upload(version.id, heroId, two);
    expect((await served(version, 'hero.png')).equals(two)).toBe(true);
    const [, oldest] = (await historyOf(version.id, heroId)).entries;
    expect((await restore(version.id, heroId, oldest!.id)).statusCode).toBe(200);
    expect((await served(version, 'hero.png')).equals(one)).toBe(true);
    const zip = await call(t, 'GET', `/api/files/${version.id}/${game.id}/files.zip`, {
      token: artist.token,
    });
    expect(zip.statusCode).toBe(200);
    expect((await readZip(zip.rawPayload)).get('hero.png')?.equals(one)).toBe(true);

    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${heroId}`, { token: artist.token }))
        .statusCode,
    ).toBe(204);
    const kept = await historyOf(version.id, heroId);
    expect(kept.entries).toHaveLength(3);
    expect(kept.entries.every((entry) => !entry.current)).toBe(true);
    for (const entry of kept.entries)
      expect((await t.app.inject({ method: 'GET', url: entry.url })).statusCode).toBe(200);
    // Restoring an entry after Restore original replaces the file again.
    expect((await restore(version.id, heroId, kept.entries[1]!.id)).statusCode).toBe(200);
    expect((await served(version, 'hero.png')).equals(two)).toBe(true);
  });

  it('restoring a sheet entry serves those bytes exactly; its replaced frames go', async () => {
    const version = await newVersion('Sheet');
    const sheetUpload = (frame: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload-frame/${version.id}/${sheetId}`,
        headers: { authorization: `Bearer ${artist.token}` },
        payload: fileForm(sheetPngOf(i), 'f.png', frame),
      });
    let sheetPngOf: (i: number) => Buffer = () => Buffer.alloc(0);
    const frames = [await png(21), await png(22)];
    sheetPngOf = (i) => frames[i]!;
    expect((await sheetUpload('a', 0)).statusCode).toBe(200);
    const composedA = await served(version, 'sheet.png');
    expect((await sheetUpload('b', 1)).statusCode).toBe(200);
    const entries = (await historyOf(version.id, sheetId)).entries;
    expect(entries.map((entry) => entry.how)).toEqual(['frame', 'frame']);
    expect((await restore(version.id, sheetId, entries[1]!.id)).statusCode).toBe(200);
    expect((await served(version, 'sheet.png')).equals(composedA)).toBe(true);
    const files = (
      await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })
    ).json<VersionFile[]>();
    expect(files.find((file) => file.fileId === sheetId)?.frames).toBeUndefined();
  });

  it('an entry whose game file changed size since is 422 with a message that says so; nothing changes', async () => {
    const version = await newVersion('Resized');
    await upload(version.id, heroId, await png(31));
    const [entry] = (await historyOf(version.id, heroId)).entries;
    // The game's hero.png as if the admin had replaced it with a 20×20 image (png replacements keep their size, so
    // the record is changed directly here; the rule reads only the recorded pixel size).
    await t.database.db
      .updateTable('gameFiles')
      .set({ width: 20, height: 20 })
      .where('id', '=', heroId)
      .execute();
    try {
      const refused = await restore(version.id, heroId, entry!.id);
      expect(refused.statusCode).toBe(422);
      expect(errorOf(refused).message).toBe(
        historyMessages.sizeChanged({ width: 16, height: 16 }, { width: 20, height: 20 }),
      );
      expect((await historyOf(version.id, heroId)).entries).toHaveLength(1);
    } finally {
      await t.database.db
        .updateTable('gameFiles')
        .set({ width: 16, height: 16 })
        .where('id', '=', heroId)
        .execute();
    }
  });

  it("someone else's version is 404 (list, content, restore), a demo account's restore 403, a locked version's 423; an entry needs the header or a ticket", async () => {
    const version = await newVersion('Access');
    await upload(version.id, heroId, await png(41));
    const [entry] = (await historyOf(version.id, heroId)).entries;
    expect((await call(t, 'GET', historyUrl(version.id, heroId), { token: other.token })).statusCode).toBe(
      404,
    );
    expect((await call(t, 'GET', historyUrl(version.id, heroId), { token: demo.token })).statusCode).toBe(
      404,
    );
    expect((await restore(version.id, heroId, entry!.id, other.token)).statusCode).toBe(404);
    expect((await restore(version.id, heroId, entry!.id, demo.token)).statusCode).toBe(403);
    const content = `${historyUrl(version.id, heroId)}/${entry!.id}/content`;
    expect((await call(t, 'GET', content, { token: other.token })).statusCode).toBe(404);
    expect((await call(t, 'GET', content)).statusCode).toBe(404);
    expect((await call(t, 'GET', `${content}?ticket=forged`)).statusCode).toBe(404);
    const viaHeader = await call(t, 'GET', content, { token: admin.token });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.headers['content-type']).toBe('image/png');
    expect(viaHeader.headers['content-security-policy']).toContain('sandbox');
    // The admin's ticket is for this version's history only.
    const otherVersion = await newVersion('Access 2');
    expect(
      (
        await call(
          t,
          'GET',
          `${historyUrl(otherVersion.id, heroId)}/${entry!.id}/content?${new URL(entry!.url, 'http://x').searchParams}`,
        )
      ).statusCode,
    ).toBe(404);
    // An entry of another file is no entry of this one.
    expect((await restore(version.id, sheetId, entry!.id)).statusCode).toBe(404);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/changeLock`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect((await restore(version.id, heroId, entry!.id)).statusCode).toBe(423);
    expect((await restore(version.id, heroId, entry!.id, admin.token)).statusCode).toBe(423);
  });

  it('the admin sees what a version keeps in storage (current files and history), counted in one query', async () => {
    const version = await newVersion('Storage');
    const one = await png(51);
    const two = await png(52, 16, 16);
    await upload(version.id, heroId, one);
    await upload(version.id, heroId, two);
    const response = await call(t, 'GET', `/api/game-versions/${version.id}/storage`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<VersionStorage>()).toEqual({
      versionId: version.id,
      currentBytes: two.length,
      historyBytes: one.length + two.length,
      historyEntries: 2,
      storageBytes: two.length + one.length + two.length,
    });
    expect(
      (await call(t, 'GET', `/api/game-versions/${version.id}/storage`, { token: artist.token })).statusCode,
    ).toBe(403);
  });

  it('deleting a version deletes its history objects; the services update keeps listed ones however old', async () => {
    const version = await newVersion('Deleted');
    await upload(version.id, heroId, await png(61));
    const kept = await newVersion('Kept');
    await upload(kept.id, heroId, await png(62));
    const keysOf = (id: number) => historyKeys().filter((key) => key.startsWith(`history/${id}/`));
    expect(keysOf(version.id)).toHaveLength(1);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}`, { token: artist.token })).statusCode,
    ).toBe(200);
    expect(keysOf(version.id)).toEqual([]);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const key of keysOf(kept.id))
      utimesSync(join(t.config.dataDir, 'files', key), twoHoursAgo, twoHoursAgo);
    const update = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.statusCode, update.body).toBe(200);
    expect(keysOf(kept.id)).toHaveLength(1);
  });
});

describe(`the history's limit on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let version: GameVersion;
  let heroId: number;
  const limit = 3;

  const upload = (app: TestApp, content: Buffer) =>
    app.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${heroId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: fileForm(content),
    });
  const entriesOf = async (app: TestApp) =>
    (
      await call(app, 'GET', `/api/game-versions/${version.id}/files/${heroId}/history`, {
        token: artist.token,
      })
    ).json<FileHistory>().entries;
  const historyKeys = (app: TestApp) => storedKeys(app).filter((key) => key.startsWith('history/'));

  beforeAll(async () => {
    t = await createTestApp({ versionHistoryLimit: limit });
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    const game = await createGame(t, admin.token, {
      name: 'Limit',
      description: 'x',
      width: 480,
      height: 640,
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html>' },
        { path: 'hero.png', content: await png(0) },
      ]),
    });
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    heroId = files.find((file) => file.path === 'hero.png')!.fileId;
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((file) => file.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
    const userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    version = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: { name: 'Limit', description: 'Limit', gameId: game.id, userGamesId: userGame.id },
      })
    ).json<GameVersion>();
  });

  afterAll(async () => {
    await t?.close();
  });

  it(`at most VERSION_HISTORY_LIMIT (${limit}) entries per file: the oldest are dropped first with their stored objects`, async () => {
    const sent = await Promise.all([1, 2, 3, 4, 5].map((i) => png(i)));
    for (const content of sent) expect((await upload(t, content)).statusCode).toBe(200);
    const entries = await entriesOf(t);
    expect(entries).toHaveLength(limit);
    // The newest three, newest first: each entry's bytes are the upload's.
    for (const [index, entry] of entries.entries()) {
      const content = await t.app.inject({ method: 'GET', url: entry.url });
      expect(content.rawPayload.equals(sent[sent.length - 1 - index]!)).toBe(true);
    }
    expect(historyKeys(t)).toHaveLength(limit);
  });

  it('a lower limit is applied by the services update, which counts the dropped entries and objects', async () => {
    const lower = await createTestApp(
      { versionHistoryLimit: 1 },
      { dataDir: t.config.dataDir, schema: t.schema },
    );
    try {
      const update = await call(lower, 'GET', '/api/admin/update', { token: admin.token });
      expect(update.statusCode, update.body).toBe(200);
      expect(update.json()).toMatchObject({
        removedHistoryEntries: limit - 1,
        removedStoredFiles: limit - 1,
      });
      expect(await entriesOf(lower)).toHaveLength(1);
      expect(historyKeys(t)).toHaveLength(1);
    } finally {
      await lower.close();
    }
  });

  it.runIf(testDb === 'postgres')(
    'on PostgreSQL, 12 uploads of one file at once through two app instances: every one recorded in turn, the limit held',
    async () => {
      const second = await createTestApp(
        { versionHistoryLimit: limit },
        { dataDir: t.config.dataDir, schema: t.schema },
      );
      try {
        const before = (await entriesOf(t))[0]!.id;
        const contents = await Promise.all(Array.from({ length: 12 }, (_, i) => png(100 + i)));
        const answers = await Promise.all(contents.map((content, i) => upload(i % 2 ? second : t, content)));
        expect(answers.map((answer) => answer.statusCode)).toEqual(contents.map(() => 200));
        const entries = await entriesOf(second);
        expect(entries).toHaveLength(limit);
        // Every upload got an entry: the ids went up by 12 (none lost, none twice).
        const { count } = await t.database.db
          .selectFrom('versionFileHistory')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow();
        expect(Number(count)).toBe(limit);
        expect(entries[0]!.id - before).toBe(12);
        expect(entries.filter((entry) => entry.current)).toHaveLength(1);
        expect(entries[0]!.current).toBe(true);
        expect(historyKeys(t)).toHaveLength(limit);
      } finally {
        await second.close();
      }
    },
  );
});
