import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  limits,
  RoleType,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
  type VersionFile,
} from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { readZip } from './support/zip-entries';

/**
 * Only admins ever receive unwatermarked originals (DESIGN.md "Play"). A version's composed sprite sheet is the
 * original sheet with the artist's frames in it (the deliverable, decision 0028); served as it is in the artist's
 * own version view, one replaced 60×60 frame handed them every other frame unmarked. Whoever may not see originals
 * now gets the version's frames on the game's watermarked copy of the sheet (decision 0049).
 */

const cell = 60;
const frames = 4;
/** A 4×1 strip of 60 px frames on a 240×60 sheet: f0 … f3. */
const descriptor = JSON.stringify({
  frames: Array.from({ length: frames }, (_, i) => ({
    filename: `f${i}`,
    frame: { x: i * cell, y: 0, w: cell, h: cell },
  })),
  meta: { image: 'sheet.png', size: { w: frames * cell, h: cell } },
});
const original = { r: 10, g: 20, b: 30 };
const colourOf = (i: number) => ({ r: (i * 37) % 256, g: (i * 91) % 256, b: 200 });
const solid = (width: number, height: number, c: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 4, background: { ...c, alpha: 1 } } })
    .png()
    .toBuffer();
const rgba = (c: { r: number; g: number; b: number }) => [c.r, c.g, c.b, 255];

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}
async function pixelsOf(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
const at = (image: Pixels, x: number, y: number) => [
  ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];
const insideFrame = (i: number, x: number) => x >= i * cell && x < (i + 1) * cell;

/**
 * Compares `served` with what it should be: inside the replaced frames their colours, outside them `around`'s
 * pixels. Answers the pixels that differ, as "x,y" (an empty list: all as expected).
 */
function differences(
  served: Pixels,
  replaced: number[],
  around: Pixels | { r: number; g: number; b: number },
): string[] {
  const wrong: string[] = [];
  for (let y = 0; y < served.height; y++) {
    for (let x = 0; x < served.width; x++) {
      const frame = replaced.find((i) => insideFrame(i, x));
      const expected =
        frame !== undefined ? rgba(colourOf(frame)) : 'data' in around ? at(around, x, y) : rgba(around);
      if (at(served, x, y).join() !== expected.join()) wrong.push(`${x},${y}`);
    }
  }
  return wrong;
}

describe(`[decision 0049] a version's sprite sheet shows artists the watermarked sheet around their frames, on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let userGame: UserGame;
  let sheetId: number;

  const uploadFrame = (app: TestApp, version: GameVersion, frame: string, content: Buffer) => {
    const body = new FormData();
    body.append('frame', frame);
    body.append('file', new Blob([content]), `${frame}.png`);
    return app.app.inject({
      method: 'POST',
      url: `/api/game-version/upload-frame/${version.id}/${sheetId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
  };
  const newVersion = async (name: string): Promise<GameVersion> => {
    // At most limits.versionsPerUserGame versions: the earlier tests' oldest goes first.
    const ids = (
      await t.database.db
        .selectFrom('gameVersions')
        .select('id')
        .where('userGamesId', '=', userGame.id)
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
    if (ids.length >= limits.versionsPerUserGame)
      expect(
        (await call(t, 'DELETE', `/api/game-versions/${ids[0]}`, { token: artist.token })).statusCode,
      ).toBe(200);
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name, description: 'Frames', gameId: game.id, userGamesId: userGame.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<GameVersion>();
  };
  /** The sheet as `who` is served it by `app`'s play origin: in the version's own view (orjFile), or another. */
  const servedSheet = async (
    who: TestUser,
    version: GameVersion,
    { app = t, link = 'orjFile' as keyof GamePath } = {},
  ) => {
    const path = (
      await call(app, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: who.token })
    ).json<GamePath>();
    const response = await app.playApp.inject({
      method: 'GET',
      url: `${new URL(String(path[link])).pathname.replace(/index\.html$/, '')}sheet.png`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return {
      body: response.rawPayload,
      etag: response.headers.etag,
      pixels: await pixelsOf(response.rawPayload),
    };
  };
  /** The game's watermarked copy of the sheet, as the artist's watermarked view serves it. */
  const watermarkedSheet = async (version: GameVersion, app = t) =>
    (await servedSheet(artist, version, { app, link: 'wtmFile' })).pixels;

  beforeAll(async () => {
    t = await createTestApp({ productName: 'Reskin Studio' });
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = await createGame(t, admin.token, { name: 'Marked', description: 'x', width: 480, height: 640 });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="sheet.png">' },
        { path: 'sheet.png', content: await solid(frames * cell, cell, original) },
        { path: 'sheet.json', content: descriptor },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    sheetId = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 'sheet.png')!.fileId;
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
    userGame = (
      await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
      })
    ).json<UserGame>();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('the artist playing their version gets their new frame and the watermarked pixels of every other frame, never the original ones', async () => {
    const version = await newVersion('One frame');
    expect((await uploadFrame(t, version, 'f0', await solid(cell, cell, colourOf(0)))).statusCode).toBe(200);

    const marked = await watermarkedSheet(version);
    // The watermarked copy is not the original around f0 (else this test would show nothing).
    expect(differences(marked, [0], original).length).toBeGreaterThan(cell * cell * 0.1);
    const served = await servedSheet(artist, version);
    expect(differences(served.pixels, [0], marked)).toEqual([]);
  });

  it("an admin playing the same version, and the version's zip, get the original pixels around the replaced frame", async () => {
    const version = await newVersion('Delivered');
    expect((await uploadFrame(t, version, 'f1', await solid(cell, cell, colourOf(1)))).statusCode).toBe(200);

    const asAdmin = await servedSheet(admin, version);
    expect(differences(asAdmin.pixels, [1], original)).toEqual([]);
    const asArtist = await servedSheet(artist, version);
    expect(asArtist.etag).not.toBe(asAdmin.etag);

    const zip = await call(t, 'GET', `/api/files/${version.id}/${game.id}/files.zip`, { token: admin.token });
    expect(zip.statusCode).toBe(200);
    const zipped = (await readZip(zip.rawPayload)).get('sheet.png')!;
    expect(differences(await pixelsOf(zipped), [1], original)).toEqual([]);
  });

  it("the artist's own zip of the version holds the sheet on the watermarked copy, never the original pixels", async () => {
    const version = await newVersion('Zipped by the artist');
    expect((await uploadFrame(t, version, 'f1', await solid(cell, cell, colourOf(1)))).statusCode).toBe(200);
    const zip = await call(t, 'GET', `/api/files/${version.id}/${game.id}/files.zip`, {
      token: artist.token,
    });
    expect(zip.statusCode).toBe(200);
    const zipped = (await readZip(zip.rawPayload)).get('sheet.png')!;
    expect(differences(await pixelsOf(zipped), [1], await watermarkedSheet(version))).toEqual([]);
  });

  it("the version's file list previews the sheet to the artist on the watermarked copy, to an admin on the original", async () => {
    const version = await newVersion('Previewed');
    expect((await uploadFrame(t, version, 'f2', await solid(cell, cell, colourOf(2)))).statusCode).toBe(200);
    const previewAs = async (who: TestUser) => {
      const files = (
        await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: who.token })
      ).json<VersionFile[]>();
      const url = files.find((file) => file.fileId === sheetId)?.preview;
      expect(url).toBeTruthy();
      const response = await t.app.inject({ method: 'GET', url: new URL(url!, 'http://app').pathname });
      expect(response.statusCode, response.body).toBe(200);
      return pixelsOf(response.rawPayload);
    };
    const [asArtist, asAdmin] = [await previewAs(artist), await previewAs(admin)];
    // Previews are encoded lossily: a pixel "is" a colour within a few levels of it.
    const near = (pixel: number[], c: { r: number; g: number; b: number }) =>
      pixel.slice(0, 3).every((value, i) => Math.abs(value - [c.r, c.g, c.b][i]!) <= 6);
    const originalPixels = (image: Pixels) => {
      let count = 0;
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++) if (near(at(image, x, y), original)) count++;
      return count / (image.width * image.height);
    };
    // The sheet is the original colour but for f2 (a quarter): so is the admin's preview; the artist's is marked.
    expect(originalPixels(asAdmin)).toBeGreaterThan(0.7);
    expect(originalPixels(asArtist)).toBeLessThan(originalPixels(asAdmin) - 0.1);
  });

  it('a whole sheet the artist uploaded is their own art: their frames drawn on it are served to them as uploaded', async () => {
    const version = await newVersion('Own sheet');
    const own = { r: 200, g: 150, b: 100 };
    const sheet = new FormData();
    sheet.append('file', new Blob([await solid(frames * cell, cell, own)]), 'sheet.png');
    const whole = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${sheetId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: sheet,
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect((await uploadFrame(t, version, 'f3', await solid(cell, cell, colourOf(3)))).statusCode).toBe(200);

    expect(differences((await servedSheet(artist, version)).pixels, [3], own)).toEqual([]);
    expect(differences((await servedSheet(admin, version)).pixels, [3], own)).toEqual([]);
  });

  it('"Restore original" of the sheet and deleting a version leave no rendition of it in storage', async () => {
    const version = await newVersion('Restored');
    expect((await uploadFrame(t, version, 'f0', await solid(cell, cell, colourOf(0)))).statusCode).toBe(200);
    expect((await uploadFrame(t, version, 'f1', await solid(cell, cell, colourOf(1)))).statusCode).toBe(200);
    const renditions = () =>
      storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`) && !key.includes('/frames/'));
    // The composed sheet and its marked rendition, the ones of the first frame's composition deleted.
    expect(renditions()).toHaveLength(2);

    const restored = await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${sheetId}`, {
      token: artist.token,
    });
    expect(restored.statusCode, restored.body).toBe(204);
    expect(renditions()).toEqual([]);
    // The version now serves the watermarked view again.
    expect(
      (await servedSheet(artist, version)).body.equals(
        (await servedSheet(artist, version, { link: 'wtmFile' })).body,
      ),
    ).toBe(true);

    const again = await newVersion('Deleted');
    expect((await uploadFrame(t, again, 'f2', await solid(cell, cell, colourOf(2)))).statusCode).toBe(200);
    expect(storedKeys(t).filter((key) => key.startsWith(`versions/${again.id}/`)).length).toBeGreaterThan(0);
    expect(
      (await call(t, 'DELETE', `/api/game-versions/${again.id}`, { token: artist.token })).statusCode,
    ).toBe(200);
    expect(storedKeys(t).filter((key) => key.startsWith(`versions/${again.id}/`))).toEqual([]);
  });

  it('the services update keeps the marked rendition however old it is', async () => {
    const version = await newVersion('Kept');
    expect((await uploadFrame(t, version, 'f0', await solid(cell, cell, colourOf(0)))).statusCode).toBe(200);
    const before = storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`));
    // An hour and more: the update's orphan sweep only looks at objects older than that.
    const { utimesSync } = await import('node:fs');
    const { join } = await import('node:path');
    const old = new Date(Date.now() - 3 * 3600_000);
    for (const key of before) utimesSync(join(t.config.dataDir, 'files', key), old, old);
    expect((await call(t, 'GET', '/api/admin/update', { token: admin.token })).statusCode).toBe(200);
    expect(storedKeys(t).filter((key) => key.startsWith(`versions/${version.id}/`))).toEqual(before);
    expect(
      differences((await servedSheet(artist, version)).pixels, [0], await watermarkedSheet(version)),
    ).toEqual([]);
  });

  it("after Gen. makes the game's copies again with another product name, the artist's version shows their frame on the new watermarked copy", async () => {
    const version = await newVersion('Renamed');
    expect((await uploadFrame(t, version, 'f1', await solid(cell, cell, colourOf(1)))).statusCode).toBe(200);
    const before = await servedSheet(artist, version);
    const markedBefore = await watermarkedSheet(version);

    // A server with another product name (the watermark's text) presses Gen.; on PostgreSQL only it takes the job.
    const other = await createTestApp(
      { productName: 'Another Studio Name' },
      { dataDir: t.config.dataDir, schema: t.schema },
    );
    try {
      if (testDb === 'postgres') await t.generation.close();
      expect(
        (await call(other, 'GET', `/api/games/${game.id}/generate`, { token: admin.token })).statusCode,
      ).toBe(200);
      await other.generation.idle();

      const markedAfter = await watermarkedSheet(version, other);
      expect(differences(markedAfter, [], markedBefore).length).toBeGreaterThan(0);
      for (const server of [other, t]) {
        const after = await servedSheet(artist, version, { app: server });
        expect(after.etag).not.toBe(before.etag);
        expect(differences(after.pixels, [1], markedAfter)).toEqual([]);
      }
      expect(differences((await servedSheet(admin, version, { app: other })).pixels, [1], original)).toEqual(
        [],
      );
    } finally {
      await other.close();
    }
  });
});

describe.runIf(testDb === 'postgres')(
  '[decision 0049] frames of one sheet uploaded at once from two servers land in both renditions (PostgreSQL)',
  () => {
    let first: TestApp;
    let second: TestApp;

    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('the artist sees every frame on the watermarked sheet, the admin every frame on the original one', async () => {
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
      const files = [
        { path: 'index.html', content: '<!doctype html>' },
        { path: 'sheet.png', content: await solid(frames * cell, cell, original) },
        { path: 'sheet.json', content: descriptor },
      ];
      expect(
        (
          await first.app.inject({
            method: 'POST',
            url: `/api/game/upload/${game.id}`,
            headers: { authorization: `Bearer ${admin.token}` },
            payload: filesForm(files),
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

      // Each frame three times, from both servers: whatever order the compositions finish in, the newest lands.
      const replaced = [0, 1, 2, 3];
      const answers = await Promise.all(
        replaced.flatMap((i) =>
          [first, second, first].map(async (server) => {
            const body = new FormData();
            body.append('frame', `f${i}`);
            body.append('file', new Blob([await solid(cell, cell, colourOf(i))]), 'f.png');
            return server.app.inject({
              method: 'POST',
              url: `/api/game-version/upload-frame/${version.id}/${sheetFileId}`,
              headers: { authorization: `Bearer ${artist.token}` },
              payload: body,
            });
          }),
        ),
      );
      expect(
        answers.map((answer) => answer.statusCode),
        answers.map((answer) => answer.body).join('\n'),
      ).toEqual(Array(answers.length).fill(200));

      const sheetAs = async (who: TestUser, link: 'orjFile' | 'wtmFile', server: TestApp) => {
        const path = (
          await call(server, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: who.token })
        ).json<GamePath>();
        const response = await server.playApp.inject({
          method: 'GET',
          url: `${new URL(path[link]).pathname.replace(/index\.html$/, '')}sheet.png`,
        });
        expect(response.statusCode).toBe(200);
        return pixelsOf(response.rawPayload);
      };
      const marked = await sheetAs(artist, 'wtmFile', first);
      for (const server of [first, second]) {
        expect(differences(await sheetAs(artist, 'orjFile', server), replaced, marked)).toEqual([]);
        expect(differences(await sheetAs(admin, 'orjFile', server), replaced, original)).toEqual([]);
      }
      // One composed sheet, its marked rendition and the 4 frames are stored: the compositions that lost left nothing.
      expect(storedKeys(first).filter((key) => key.startsWith(`versions/${version.id}/`))).toHaveLength(
        2 + replaced.length,
      );
    });
  },
);
