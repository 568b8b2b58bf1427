import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
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
 * A server killed between recording a frame (the sheet's revision goes up) and landing its composition left the
 * version's sheet at an older composition, served as it was after a restart and after the services update. The
 * start-up and the services update now compose such sheets again (decision 0046).
 */

const cell = 16;
/** A 4×1 grid of 16 px frames on a 64×16 sheet: f0 … f3. */
const descriptor = JSON.stringify({
  frames: Array.from({ length: 4 }, (_, i) => ({
    filename: `f${i}`,
    frame: { x: i * cell, y: 0, w: cell, h: cell },
  })),
  meta: { image: 'sheet.png', size: { w: 4 * cell, h: cell } },
});
const base = { r: 10, g: 20, b: 30 };
const colourOf = (i: number) => ({ r: (i * 37) % 256, g: (i * 91) % 256, b: 200 });
const framePng = (i: number) =>
  sharp({ create: { width: cell, height: cell, channels: 4, background: { ...colourOf(i), alpha: 1 } } })
    .png()
    .toBuffer();
const rgba = (c: { r: number; g: number; b: number }) => [c.r, c.g, c.b, 255];

/** The RGBA at the middle of frame `i` of a served sheet. */
async function frameColour(sheet: Buffer, i: number): Promise<number[]> {
  const { data, info } = await sharp(sheet).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = ((cell / 2) * info.width + i * cell + cell / 2) * 4;
  return [...data.subarray(at, at + 4)];
}

describe(`a version's sprite sheet left behind its frames by a killed server is composed again, on ${testDb}`, () => {
  let a: TestApp;
  let b: TestApp | undefined;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let version: GameVersion;
  let sheetId: number;

  /** The version's sheet as `server`'s play origin serves it in the version's view, to an admin (on the original). */
  async function servedSheet(server: TestApp): Promise<Buffer> {
    const path = (
      await call(server, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: admin.token })
    ).json<GamePath>();
    const response = await server.playApp.inject({
      method: 'GET',
      url: `${new URL(path.orjFile).pathname.replace(/index\.html$/, '')}sheet.png`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  }

  /**
   * What a server killed mid-upload leaves: frame `i` stored and recorded, the sheet's revision counted up past its
   * composed one (twice: two uploads at once), and no composition landed.
   */
  async function frameRecordedButNeverComposed(i: number): Promise<void> {
    const key = `versions/${version.id}/frames/killed-${i}.png`;
    await new LocalDiskStorage(join(a.config.dataDir, 'files')).put(key, await framePng(i));
    const db = a.database.db;
    await db
      .insertInto('versionFrames')
      .values({
        gameVersionId: version.id,
        fileId: sheetId,
        frame: `f${i}`,
        storageKey: key,
        width: cell,
        height: cell,
        createdAt: nowIso(),
        updatedAt: nowIso(),
      })
      .execute();
    const sheet = await db
      .selectFrom('versionSheets')
      .select(['revision', 'composedRevision'])
      .where('gameVersionId', '=', version.id)
      .where('fileId', '=', sheetId)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('versionSheets')
      .set({ revision: sheet.composedRevision + 2 })
      .where('gameVersionId', '=', version.id)
      .where('fileId', '=', sheetId)
      .execute();
  }

  const revisions = () =>
    a.database.db
      .selectFrom('versionSheets')
      .select(['revision', 'composedRevision'])
      .where('gameVersionId', '=', version.id)
      .where('fileId', '=', sheetId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    a = await createTestApp();
    [admin, artist] = [await createUser(a, RoleType.Admin), await createUser(a)];
    game = await createGame(a, admin.token, { name: 'Killed', description: 'x', width: 480, height: 640 });
    const sheet = await sharp({
      create: { width: 4 * cell, height: cell, channels: 4, background: { ...base, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const uploaded = await a.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="sheet.png">' },
        { path: 'sheet.png', content: sheet },
        { path: 'sheet.json', content: descriptor },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    sheetId = (await call(a, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 'sheet.png')!.fileId;
    await call(a, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await a.generation.idle();
    const userGame = (
      await call(a, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    const created = await call(a, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name: 'Look', description: 'My look', gameId: game.id, userGamesId: userGame.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    version = created.json<GameVersion>();
    const frame = new FormData();
    frame.append('frame', 'f0');
    frame.append('file', new Blob([await framePng(0)]), 'f0.png');
    const replaced = await a.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${version.id}/${sheetId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: frame,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('after a restart, the play origin serves the sheet with the frame whose composition never landed', async () => {
    await frameRecordedButNeverComposed(1);
    // The state the kill left: the frame is recorded, the served sheet does not have it.
    expect(await frameColour(await servedSheet(a), 1)).toEqual(rgba(base));

    // Another server starts on the same database (a restart, or a second server coming up).
    b = await createTestApp({}, { dataDir: a.config.dataDir, schema: a.schema });
    const served = await servedSheet(b);
    expect(await frameColour(served, 0)).toEqual(rgba(colourOf(0)));
    expect(await frameColour(served, 1)).toEqual(rgba(colourOf(1)));
    expect(await frameColour(served, 2)).toEqual(rgba(base));
    const { revision, composedRevision } = await revisions();
    expect(composedRevision).toBe(revision);
  });

  it('GET /api/admin/update composes a sheet left behind on a running server, answering how many; the next one finds none', async () => {
    await frameRecordedButNeverComposed(2);
    expect(await frameColour(await servedSheet(a), 2)).toEqual(rgba(base));

    const update = await call(a, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json()).toMatchObject({ recomposedSheets: 1 });
    const served = await servedSheet(a);
    expect([
      await frameColour(served, 0),
      await frameColour(served, 1),
      await frameColour(served, 2),
    ]).toEqual([colourOf(0), colourOf(1), colourOf(2)].map(rgba));

    expect((await call(a, 'GET', '/api/admin/update', { token: admin.token })).json()).toMatchObject({
      recomposedSheets: 0,
    });
  });
});
