import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  limits,
  type Atlas,
  type Game,
  type GameAtlases,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
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
import { solidPng } from './support/image-samples';

/**
 * Uniform grids (decision 0028 "Grids"): an admin or the game's artist declares the frame size, margin
 * and spacing of an image; the image is then a sprite sheet of format 'grid' in GET atlases, its frames numbered
 * row by row, and its frames can be replaced like any sheet's.
 */
describe(`uniform grids on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let userGame: UserGame;
  const fileIds: Record<string, number> = {};

  const gridUrl = (path: string, gameId = game.id) => `/api/games/${gameId}/files/${fileIds[path]}/grid`;
  const declare = (path: string, payload: unknown, token = admin.token) =>
    call(t, 'PUT', gridUrl(path), { token, payload });
  const atlases = async (token = admin.token) => {
    const response = await call(t, 'GET', `/api/games/${game.id}/atlases`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<GameAtlases>();
  };
  const upload = async (files: { path: string; content: Buffer | string }[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm(files),
    });
    expect(response.statusCode, response.body).toBe(200);
    for (const file of (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >())
      fileIds[file.path] = file.fileId;
  };

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = await createGame(t, admin.token, { name: 'Grids', description: 'x', width: 480, height: 640 });
    userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    await upload([
      { path: 'index.html', content: '<!doctype html><p>grids</p>' },
      // 4×3 frames of 16 px with a 2 px margin and 1 px spacing: 2 + 4·16 + 3·1 + 2 = 71 wide, 2 + 3·16 + 2·1 + 2 = 54 high.
      { path: 'hero.png', content: await solidPng(71, 54) },
      { path: 'coin.png', content: await solidPng(64, 16) },
      { path: 'tiny.png', content: await solidPng(8, 8) },
    ]);
  });
  afterAll(async () => t?.close());

  it('declares a grid: the image is a sheet of format grid, its whole frames numbered row by row, kept in GET atlases', async () => {
    const response = await declare('hero.png', { frameWidth: 16, frameHeight: 16, margin: 2, spacing: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const atlas = response.json<Atlas>();
    expect(atlas).toMatchObject({
      descriptor: 'hero.png',
      descriptorFileId: fileIds['hero.png'],
      format: 'grid',
      pages: [{ image: 'hero.png', fileId: fileIds['hero.png'], width: 71, height: 54 }],
    });
    expect(atlas.frames).toHaveLength(12);
    expect(atlas.frames[0]).toMatchObject({
      name: '0',
      rect: { x: 2, y: 2, w: 16, h: 16 },
      sourceSize: { w: 16, h: 16 },
      rotation: 0,
      trimmed: false,
    });
    expect(atlas.frames[5]).toMatchObject({ name: '5', rect: { x: 19, y: 19, w: 16, h: 16 } });
    expect((await atlases()).atlases.find((found) => found.descriptor === 'hero.png')).toEqual(atlas);
  });

  it("changing or removing a grid changes GET atlases at once (the kept answer follows the game's grids)", async () => {
    expect((await declare('coin.png', { frameWidth: 16, frameHeight: 16 })).statusCode).toBe(200);
    expect((await atlases()).atlases.find((atlas) => atlas.descriptor === 'coin.png')?.frames).toHaveLength(
      4,
    );
    expect((await declare('coin.png', { frameWidth: 32, frameHeight: 16 })).statusCode).toBe(200);
    expect((await atlases()).atlases.find((atlas) => atlas.descriptor === 'coin.png')?.frames).toHaveLength(
      2,
    );
    expect((await call(t, 'DELETE', gridUrl('coin.png'), { token: admin.token })).statusCode).toBe(204);
    expect((await atlases()).atlases.map((atlas) => atlas.descriptor)).not.toContain('coin.png');
    const again = await call(t, 'DELETE', gridUrl('coin.png'), { token: admin.token });
    expect(again.statusCode).toBe(404);
    expect(errorOf(again).message).toBe('Grid not found.');
  });

  it('refuses a file that is not an image, a grid with no whole frame and one of too many frames (422, the reason in words)', async () => {
    const page = await declare('index.html', { frameWidth: 4, frameHeight: 4 });
    expect(page.statusCode).toBe(422);
    expect(errorOf(page).message).toMatch(/index.html is not an image/);
    const tooBig = await declare('tiny.png', { frameWidth: 8, frameHeight: 8, margin: 1 });
    expect(tooBig.statusCode).toBe(422);
    expect(errorOf(tooBig).message).toBe('A 8×8 frame with a margin of 1 px does not fit in the 8×8 image.');
    await upload([{ path: 'big.png', content: await solidPng(200, 60) }]);
    const tooMany = await declare('big.png', { frameWidth: 1, frameHeight: 1 });
    expect(tooMany.statusCode).toBe(422);
    expect(errorOf(tooMany).message).toBe(
      `The grid cuts 12000 frames; a sheet may have at most ${limits.atlas.maxFrames}.`,
    );
    expect((await declare('tiny.png', { frameWidth: 0, frameHeight: 8 })).statusCode).toBe(422);
    expect(
      (
        await call(t, 'PUT', `/api/games/${game.id}/files/999999/grid`, {
          token: admin.token,
          payload: { frameWidth: 4, frameHeight: 4 },
        })
      ).statusCode,
    ).toBe(404);
    expect((await atlases()).atlases.map((atlas) => atlas.descriptor)).toEqual(['hero.png']);
  });

  it("only administrators declare and remove grids: the game's own artist, other artists and demo accounts get 403 and the admin's grid stays", async () => {
    expect((await declare('tiny.png', { frameWidth: 4, frameHeight: 4 })).statusCode).toBe(200);
    const stranger = await createUser(t);
    const demo = await createUser(t, RoleType.Demo);
    for (const token of [artist.token, stranger.token, demo.token]) {
      const declared = await declare('tiny.png', { frameWidth: 1, frameHeight: 1, spacing: 7 }, token);
      expect(declared.statusCode).toBe(403);
      expect(errorOf(declared).code).toBe('FORBIDDEN');
      expect((await call(t, 'DELETE', gridUrl('tiny.png'), { token })).statusCode).toBe(403);
    }
    const grid = (await atlases()).atlases.find((atlas) => atlas.descriptor === 'tiny.png');
    expect(grid?.frames.length).toBe(4);
    expect((await call(t, 'DELETE', gridUrl('tiny.png'), { token: admin.token })).statusCode).toBe(204);
  });

  it("a grid's frames are replaced like any sheet's, and the grid then stays as it is (409) until they are restored", async () => {
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name: 'Grid look', description: 'Grid', gameId: game.id, userGamesId: userGame.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const version = created.json<GameVersion>();
    const body = new FormData();
    body.append('frame', '5');
    body.append(
      'file',
      new Blob([
        await sharp({
          create: { width: 16, height: 16, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } },
        })
          .png()
          .toBuffer(),
      ]),
      'five.png',
    );
    const replaced = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${version.id}/${fileIds['hero.png']}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const changed = await declare('hero.png', { frameWidth: 8, frameHeight: 8 });
    expect(changed.statusCode).toBe(409);
    expect(errorOf(changed).message).toMatch(/Versions have replaced frames of this sheet/);
    expect((await call(t, 'DELETE', gridUrl('hero.png'), { token: admin.token })).statusCode).toBe(409);
    const restored = await call(
      t,
      'DELETE',
      `/api/game-versions/${version.id}/files/${fileIds['hero.png']}/frames/5`,
      { token: artist.token },
    );
    expect(restored.statusCode, restored.body).toBe(204);
    expect(
      (await declare('hero.png', { frameWidth: 16, frameHeight: 16, margin: 2, spacing: 1 })).statusCode,
    ).toBe(200);
  });

  it('a grid goes with its file', async () => {
    expect((await declare('coin.png', { frameWidth: 16, frameHeight: 16 })).statusCode).toBe(200);
    expect(
      (await call(t, 'DELETE', `/api/games/${game.id}/files/${fileIds['coin.png']}`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const rows = await t.database.db
      .selectFrom('atlasGrids')
      .select('fileId')
      .where('gameId', '=', game.id)
      .execute();
    expect(rows.map((row) => row.fileId)).toEqual([fileIds['hero.png']]);
  });
});
