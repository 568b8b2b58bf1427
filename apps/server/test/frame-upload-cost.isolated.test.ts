import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RoleType, type FrameUpload, type GameFile, type GameVersion, type UserGame } from '@reskin/contract';
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
import { countQueries } from './support/query-count';

/** Bytes whose decodes are counted: sharp opened on them and asked for pixels (a header read is no decode). */
const watched = { bytes: undefined as Buffer | undefined, decodes: 0 };

type Opened = { toBuffer: (...args: unknown[]) => Promise<unknown> };
type Open = (...args: unknown[]) => Opened;

// The server opens every image through lib/images/sharp.ts (sharp itself is loaded on first use by require, which
// no module mock reaches), so that wrapper is the one watched.
vi.mock('../src/lib/images/sharp', async (importOriginal) => {
  const real = (await importOriginal<{ sharp: Open }>()).sharp;
  const counting: Open = (...args) => {
    const image = real(...args);
    const [input] = args;
    if (watched.bytes && Buffer.isBuffer(input) && input.equals(watched.bytes)) {
      const toBuffer = image.toBuffer.bind(image);
      image.toBuffer = (...rest: unknown[]) => {
        watched.decodes += 1;
        return toBuffer(...rest);
      };
    }
    return image;
  };
  return { sharp: counting };
});

const cell = 16;
const descriptor = JSON.stringify({
  frames: Array.from({ length: 4 }, (_, i) => ({
    filename: `f${i}`,
    frame: { x: (i % 2) * cell, y: Math.floor(i / 2) * cell, w: cell, h: cell },
  })),
  meta: { image: 'sheet.png', size: { w: 2 * cell, h: 2 * cell } },
});
const framePng = (red: number) =>
  sharp({ create: { width: cell, height: cell, channels: 4, background: { r: red, g: 9, b: 9, alpha: 1 } } })
    .png()
    .toBuffer();

/**
 * What one frame upload costs (decision 0055): the artist's bytes are stored once, read and decoded once, and the
 * frame, the composed sheet and its history entry are recorded in at most two transactions of a few statements,
 * the first frame of a sheet as any later one.
 */
describe(`the work of one frame upload on ${testDb}`, () => {
  let t: TestApp;
  let artist: TestUser;
  let version: GameVersion;
  let sheetId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t);
    const game = await createGame(t, admin.token, {
      name: 'Cost',
      description: 'x',
      width: 480,
      height: 640,
    });
    const sheet = await sharp({
      create: { width: 2 * cell, height: 2 * cell, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const uploaded = await call(t, 'POST', `/api/game/upload/${game.id}`, {
      token: admin.token,
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="sheet.png">' },
        { path: 'sheet.png', content: sheet },
        { path: 'sheet.json', content: descriptor },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    sheetId = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 'sheet.png')!.fileId;
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
  afterAll(async () => t?.close());

  /** Uploads `frame` and counts the statements, transactions, reads of what the request stored, and decodes. */
  async function measuredUpload(frame: string, bytes: Buffer) {
    const stored = new Set<string>();
    const realPut = LocalDiskStorage.prototype.put;
    const realGet = LocalDiskStorage.prototype.get;
    const reads: string[] = [];
    LocalDiskStorage.prototype.put = function (this: LocalDiskStorage, key, ...rest) {
      stored.add(key);
      return realPut.call(this, key, ...rest);
    };
    LocalDiskStorage.prototype.get = function (this: LocalDiskStorage, key, ...rest) {
      reads.push(key);
      return realGet.call(this, key, ...rest);
    };
    watched.bytes = bytes;
    watched.decodes = 0;
    let answer: FrameUpload | undefined;
    try {
      const counted = await countQueries(t, async () => {
        const body = new FormData();
        body.append('frame', frame);
        body.append('file', new Blob([bytes]), 'frame.png');
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/game-version/upload-frame/${version.id}/${sheetId}`,
          headers: { authorization: `Bearer ${artist.token}` },
          payload: body,
        });
        expect(response.statusCode, response.body).toBe(200);
        answer = response.json<FrameUpload>();
      });
      const frameKeys = [...stored].filter((key) => key.includes('/frames/'));
      return {
        ...counted,
        frameReads: reads.filter((key) => frameKeys.includes(key)).length,
        readBacks: reads.filter((key) => stored.has(key)).length,
        decodes: watched.decodes,
        answer: answer!,
      };
    } finally {
      LocalDiskStorage.prototype.put = realPut;
      LocalDiskStorage.prototype.get = realGet;
      watched.bytes = undefined;
    }
  }

  it('stores the frame once, reads and decodes it once, in at most 2 transactions of at most 12 statements', async () => {
    const first = await measuredUpload('f1', await framePng(200));
    const later = await measuredUpload('f2', await framePng(100));
    const again = await measuredUpload('f1', await framePng(50));
    expect(again.answer).toMatchObject({ fileId: sheetId, frames: ['f1', 'f2'], notice: null });
    for (const measured of [first, later, again]) {
      expect(measured.frameReads).toBeLessThanOrEqual(1);
      // Nothing the request stored is read back (the history copy is written from the composed bytes).
      expect(measured.readBacks).toBe(0);
      expect(measured.decodes).toBe(1);
      expect(measured.transactions).toBeLessThanOrEqual(2);
      expect(measured.queries).toBeLessThanOrEqual(12);
    }
  });
});
