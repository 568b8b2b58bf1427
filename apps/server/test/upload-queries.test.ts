import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { RoleType, type Game, type GameFile } from '@reskin/contract';
import {
  createGame,
  createTestApp,
  createUser,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
import { countQueries } from './support/query-count';

/** A zip (yazl) of small text files under data/, numbered from `from` to before `to`, and `images` PNG sprites. */
async function zipOfTextFiles(from: number, to: number, images = 0): Promise<Buffer> {
  const zip = new ZipFile();
  for (let i = from; i < to; i += 1) zip.addBuffer(Buffer.from(`line ${i}\n`), `data/part-${i}.txt`);
  for (let i = 0; i < images; i += 1) {
    const sprite = await sharp({
      create: { width: 8 + i, height: 8, channels: 4, background: { r: i, g: 80, b: 160, alpha: 1 } },
    })
      .png()
      .toBuffer();
    zip.addBuffer(sprite, `img/sprite-${i}.png`, { compress: false });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe(`queries per upload on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t.close());

  /** A game holding `count` files (zip uploads of at most 750 files each: a request takes 1,000), without an index. */
  async function gameOf(count: number): Promise<Game> {
    const game = await createGame(t, admin.token, {
      name: `Game of ${count}`,
      description: 'Big',
      width: 640,
      height: 480,
    });
    for (let from = 0; from < count; from += 750) {
      const body = new FormData();
      body.append('file', new Blob([await zipOfTextFiles(from, Math.min(count, from + 750))]), 'game.zip');
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/game/upload-zip/${game.id}`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: body,
      });
      expect(response.statusCode).toBe(200);
    }
    return game;
  }

  /** A folder upload of 10 files (an index.html among them, so the game gets its index) into the game. */
  async function uploadTen(gameId: number): Promise<GameFile[]> {
    const files = [
      { path: 'index.html', content: '<!doctype html><title>Game</title>' },
      ...Array.from({ length: 9 }, (_, i) => ({
        path: `src/module-${i}.js`,
        content: `export const n = ${i};`,
      })),
    ];
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${gameId}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm(files),
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ file: GameFile }[]>().map((result) => result.file);
  }

  it('a folder upload of 10 files runs as many queries into a game of 1,500 files as into one of 100', async () => {
    const small = await gameOf(100);
    const big = await gameOf(1500);
    let smallFiles: GameFile[] = [];
    let bigFiles: GameFile[] = [];
    const intoSmall = await countQueries(t, async () => void (smallFiles = await uploadTen(small.id)));
    const intoBig = await countQueries(t, async () => void (bigFiles = await uploadTen(big.id)));
    expect(intoSmall.queries).toBeGreaterThan(0);
    expect(intoBig.queries).toBe(intoSmall.queries);
    // guessIndex's rule still holds: the index.html of the upload is marked in both games.
    for (const files of [smallFiles, bigFiles]) {
      expect(files.filter((file) => file.isStartFile).map((file) => file.path)).toEqual(['index.html']);
    }
  }, 120_000);

  /** A zip upload into a new game, counting statements, writes, reads back and the batches made durable. */
  async function measuredZip(zip: Buffer) {
    const game = await createGame(t, admin.token, {
      name: 'Measured zip',
      description: 'Counted',
      width: 640,
      height: 480,
    });
    const storage = LocalDiskStorage.prototype;
    const { put, get, makeDurable } = storage;
    const counted = { puts: 0, waitedPuts: 0, gets: 0, durableBatches: [] as number[] };
    storage.put = function (this: LocalDiskStorage, key, data, options) {
      counted.puts += 1;
      if (options?.durable !== false) counted.waitedPuts += 1;
      return put.call(this, key, data, options);
    };
    storage.get = function (this: LocalDiskStorage, ...args) {
      counted.gets += 1;
      return get.apply(this, args);
    };
    storage.makeDurable = function (this: LocalDiskStorage, keys) {
      counted.durableBatches.push(keys.length);
      return makeDurable.call(this, keys);
    };
    try {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(zip)]), 'game.zip');
      const queries = await countQueries(t, async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/game/upload-zip/${game.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: body,
        });
        expect(response.statusCode, response.body).toBe(200);
      });
      return { ...counted, ...queries };
    } finally {
      Object.assign(storage, { put, get, makeDurable });
    }
  }

  it('decision 0061: a zip of 200 files costs the statements of one of 20; each file written once, never read back, made durable in one batch', async () => {
    const small = await measuredZip(await zipOfTextFiles(0, 15, 5));
    const big = await measuredZip(await zipOfTextFiles(0, 150, 50));
    expect(big.queries).toBe(small.queries);
    expect(big.transactions).toBe(small.transactions);
    for (const [measured, files] of [
      [small, 20],
      [big, 200],
    ] as const) {
      expect(measured.puts).toBe(files);
      expect(measured.waitedPuts).toBe(0);
      // The images are checked from the bytes the zip gave, engine detection reads a few heads.
      expect(measured.gets).toBeLessThan(files / 4);
      expect(measured.durableBatches).toEqual([files]);
    }
  }, 120_000);
});
