import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  errorCodes,
  type FrameUpload,
  type Game,
  type GamePath,
  type GameFile,
  type GameVersion,
  type UserGame,
  type VersionFile,
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
import { solidPng } from './support/image-samples';

/**
 * Replacing single frames of a sprite sheet in a version: the version's sheet is the original with the
 * replaced frames in their rects; restoring a frame takes it out again; the sheet is served by the play origin
 * and zipped under its own path. On PostgreSQL, 20 frames replaced at once through two app instances all land.
 */

const cols = 5;
const cell = 16;
/** A 5×4 grid of 16 px frames on an 80×64 sheet, as a TexturePacker JSON array names them: f0 … f19. */
const descriptor = JSON.stringify({
  frames: Array.from({ length: 20 }, (_, i) => ({
    filename: `f${i}`,
    frame: { x: (i % cols) * cell, y: Math.floor(i / cols) * cell, w: cell, h: cell },
  })),
  meta: { image: 'sheet.png', size: { w: cols * cell, h: 4 * cell } },
});

const colourOf = (i: number) => ({ r: (i * 37) % 256, g: (i * 91) % 256, b: 200, alpha: 1 });
const framePng = (i: number, size = cell) =>
  sharp({ create: { width: size, height: size, channels: 4, background: colourOf(i) } })
    .png()
    .toBuffer();

function frameForm(frame: string | undefined, content: Buffer, name = 'frame.png'): FormData {
  const body = new FormData();
  if (frame !== undefined) body.append('frame', frame);
  body.append('file', new Blob([content]), name);
  return body;
}

/** The RGBA of a pixel of a PNG. */
async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
}
const rgba = (c: { r: number; g: number; b: number }) => [c.r, c.g, c.b, 255];

describe(`replacing frames of a sprite sheet in a version on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let sheetId: number;
  let version: GameVersion;

  const uploadFrame = (
    frame: string | undefined,
    content: Buffer,
    { token = artist.token, versionId = version.id, app = t, name = 'frame.png' } = {},
  ) =>
    app.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${versionId}/${sheetId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: frameForm(frame, content, name),
    });
  const versionFiles = async () =>
    (await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })).json<
      VersionFile[]
    >();
  /**
   * The version's sheet as the play origin serves it in the version's view to an admin: composed on the original
   * (an artist gets it on the watermarked copy: test/marked-sheets.test.ts).
   */
  const servedSheet = async () => {
    const path = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: admin.token })
    ).json<GamePath>();
    const response = await t.playApp.inject({
      method: 'GET',
      url: `${new URL(path.orjFile).pathname.replace(/index\.html$/, '')}sheet.png`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  };

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = await createGame(t, admin.token, { name: 'Frames', description: 'x', width: 480, height: 640 });
    const sheet = await sharp({
      create: {
        width: cols * cell,
        height: 4 * cell,
        channels: 4,
        background: { r: 10, g: 20, b: 30, alpha: 1 },
      },
    })
      .png()
      .toBuffer();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="sheet.png">' },
        { path: 'sheet.png', content: sheet },
        { path: 'sheet.json', content: descriptor },
        { path: 'plain.png', content: await solidPng(16, 16) },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    sheetId = files.find((file) => file.path === 'sheet.png')!.fileId;
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
        payload: {
          name: 'Frames look',
          description: 'Frame by frame',
          gameId: game.id,
          userGamesId: userGame.id,
        },
      })
    ).json<GameVersion>();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('composes the sheet with the new frame in its rect before answering; the other frames stay', async () => {
    const response = await uploadFrame('f6', await framePng(6));
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<FrameUpload>();
    expect(answer).toMatchObject({
      fileId: sheetId,
      path: 'sheet.png',
      width: 80,
      height: 64,
      frames: ['f6'],
      notice: null,
    });
    const served = await servedSheet();
    // f6 is column 1, row 1: x 16-31, y 16-31.
    expect(await pixel(served, 16, 16)).toEqual(rgba(colourOf(6)));
    expect(await pixel(served, 31, 31)).toEqual(rgba(colourOf(6)));
    expect(await pixel(served, 15, 16)).toEqual([10, 20, 30, 255]);
    expect(await pixel(served, 32, 31)).toEqual([10, 20, 30, 255]);
    expect((await versionFiles()).find((file) => file.fileId === sheetId)?.frames).toEqual(['f6']);
  });

  it('refuses a frame of the wrong size naming the expected size, an unknown frame, a missing name, a game file that is no sheet', async () => {
    const wrong = await uploadFrame('f1', await framePng(1, 20));
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).message).toBe('The frame "f1" is 16 × 16 pixels; this image is 20 × 20.');
    expect((await uploadFrame('nope', await framePng(1))).statusCode).toBe(404);
    const unnamed = await uploadFrame(undefined, await framePng(1));
    expect(unnamed.statusCode).toBe(422);
    expect(errorOf(unnamed).details?.[0]).toMatchObject({ path: '/frame', code: 'required' });
    // The fields before the file are parsed by the contract's schema: an empty name breaks it as a JSON body would.
    const emptyName = await uploadFrame('', await framePng(1));
    expect(emptyName.statusCode).toBe(422);
    expect(errorOf(emptyName)).toMatchObject({
      code: errorCodes.validationFailed,
      message: 'The request body is invalid.',
      details: [{ path: '/frame', code: 'too_small' }],
    });
    const plainId = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 'plain.png')!.fileId;
    const notSheet = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${version.id}/${plainId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: frameForm('f1', await framePng(1)),
    });
    expect(notSheet.statusCode).toBe(422);
    expect(errorOf(notSheet).details?.[0]).toMatchObject({ code: 'not_sheet' });
    const notImage = await uploadFrame('f1', Buffer.from('not an image'));
    expect(notImage.statusCode).toBe(422);
    // Nothing of the refusals changed the version's sheet.
    expect((await versionFiles()).find((file) => file.fileId === sheetId)?.frames).toEqual(['f6']);
  });

  it('restores one frame: the sheet is composed again without it, and without frames the version serves the original', async () => {
    expect((await uploadFrame('f0', await framePng(0))).statusCode).toBe(200);
    const restore = await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${sheetId}/frames/f6`, {
      token: artist.token,
    });
    expect(restore.statusCode, restore.body).toBe(204);
    let served = await servedSheet();
    expect(await pixel(served, 0, 0)).toEqual(rgba(colourOf(0)));
    expect(await pixel(served, 16, 16)).toEqual([10, 20, 30, 255]);
    expect(
      (
        await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${sheetId}/frames/f6`, {
          token: artist.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${sheetId}/frames/f0`, {
          token: artist.token,
        })
      ).statusCode,
    ).toBe(204);
    expect((await versionFiles()).some((file) => file.fileId === sheetId)).toBe(false);
    served = await servedSheet();
    // The version's view serves the game's watermarked copy again: no longer the replaced colour.
    expect(await pixel(served, 0, 0)).not.toEqual(rgba(colourOf(0)));
    // No frame or composed object is left behind.
    expect(storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`))).toEqual([]);
  });

  it('draws the frames onto a whole-sheet upload, and "Restore original" takes the sheet, its frames and base away', async () => {
    expect((await uploadFrame('f3', await framePng(3))).statusCode).toBe(200);
    const whole = await sharp({
      create: { width: 80, height: 64, channels: 4, background: { r: 250, g: 0, b: 0, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const body = new FormData();
    body.append('file', new Blob([whole]), 'sheet.png');
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${sheetId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json<VersionFile>().frames).toEqual(['f3']);
    const served = await servedSheet();
    expect(await pixel(served, 48, 0)).toEqual(rgba(colourOf(3)));
    expect(await pixel(served, 0, 0)).toEqual([250, 0, 0, 255]);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${sheetId}`, { token: artist.token }))
        .statusCode,
    ).toBe(204);
    expect(await versionFiles()).toEqual([]);
    expect(storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`))).toEqual([]);
  });

  it('tells the artist when a trimmed frame drops visible pixels', async () => {
    // A sheet whose frame "t" is trimmed: 8×8 stored of a 16×16 sprite at 4,4.
    const trimmedGame = await createGame(t, admin.token, {
      name: 'Trimmed',
      description: 'x',
      width: 480,
      height: 640,
    });
    const files = [
      { path: 'index.html', content: '<!doctype html>' },
      { path: 't.png', content: await solidPng(32, 32) },
      {
        path: 't.json',
        content: JSON.stringify({
          frames: {
            t: {
              frame: { x: 0, y: 0, w: 8, h: 8 },
              trimmed: true,
              spriteSourceSize: { x: 4, y: 4, w: 8, h: 8 },
              sourceSize: { w: 16, h: 16 },
            },
          },
          meta: { image: 't.png' },
        }),
      },
    ];
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/game/upload/${trimmedGame.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: filesForm(files),
        })
      ).statusCode,
    ).toBe(200);
    const fileId = (await call(t, 'GET', `/api/games/${trimmedGame.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 't.png')!.fileId;
    const userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: trimmedGame.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
    const trimmedVersion = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: { name: 'Trim', description: 'Trimmed', gameId: trimmedGame.id, userGamesId: userGame.id },
      })
    ).json<GameVersion>();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${trimmedVersion.id}/${fileId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: frameForm('t', await framePng(9)),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<FrameUpload>().notice).toMatch(
      /not transparent: the sheet keeps only the trimmed area/,
    );
  });
});

describe.runIf(testDb === 'postgres')(
  '20 frame replacements of one sheet at once, from two servers (PostgreSQL)',
  () => {
    let first: TestApp;
    let second: TestApp;

    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('lands all 20 in the composed sheet', async () => {
      first = await createTestApp();
      second = await createTestApp({}, { dataDir: first.config.dataDir, schema: first.schema });
      const admin = await createUser(first, RoleType.Admin);
      const artist = await createUser(first);
      const game = await createGame(first, admin.token, {
        name: 'Race',
        description: 'x',
        width: 480,
        height: 640,
      });
      const sheet = await sharp({
        create: { width: 80, height: 64, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } },
      })
        .png()
        .toBuffer();
      expect(
        (
          await first.app.inject({
            method: 'POST',
            url: `/api/game/upload/${game.id}`,
            headers: { authorization: `Bearer ${admin.token}` },
            payload: filesForm([
              { path: 'index.html', content: '<!doctype html>' },
              { path: 'sheet.png', content: sheet },
              { path: 'sheet.json', content: descriptor },
            ]),
          })
        ).statusCode,
      ).toBe(200);
      const sheetFileId = (await call(first, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
        .json<GameFile[]>()
        .find((file) => file.path === 'sheet.png')!.fileId;
      await call(first, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
      await first.generation.idle();
      const userGame = (
        await call(first, 'POST', '/api/user-games', {
          token: admin.token,
          payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
        })
      ).json<UserGame>();
      const version = (
        await call(first, 'POST', '/api/game-versions', {
          token: artist.token,
          payload: { name: 'Race look', description: 'At once', gameId: game.id, userGamesId: userGame.id },
        })
      ).json<GameVersion>();

      const frames = await Promise.all(Array.from({ length: 20 }, (_, i) => framePng(i)));
      const answers = await Promise.all(
        frames.map((content, i) =>
          (i % 2 ? second : first).app.inject({
            method: 'POST',
            url: `/api/game-version/upload-frame/${version.id}/${sheetFileId}`,
            headers: { authorization: `Bearer ${artist.token}` },
            payload: frameForm(`f${i}`, content),
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));

      const files = (
        await call(first, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })
      ).json<VersionFile[]>();
      expect(files).toHaveLength(1);
      expect(files[0]!.frames).toHaveLength(20);
      const path = (
        await call(second, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: admin.token })
      ).json<GamePath>();
      const served = await second.playApp.inject({
        method: 'GET',
        url: `${new URL(path.orjFile).pathname.replace(/index\.html$/, '')}sheet.png`,
      });
      expect(served.statusCode).toBe(200);
      for (let i = 0; i < 20; i++) {
        expect(
          await pixel(served.rawPayload, (i % cols) * cell + 8, Math.floor(i / cols) * cell + 8),
          `frame f${i}`,
        ).toEqual(rgba(colourOf(i)));
      }
      // One composed sheet, its marked rendition (decision 0049) and the 20 frames are stored: the compositions that
      // lost left nothing behind.
      expect(storedKeys(first).filter((key) => key.startsWith(`versions/${version.id}/`))).toHaveLength(22);
    });
  },
);
