import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, type Game, type GameFile } from '@reskin/contract';
import { variantKey } from '../src/lib/variants';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
import { call, createTestApp, createUser, errorOf, testDb, type TestApp, type TestUser } from './helpers';

describe(`[GAM-4] generation on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let storage: LocalDiskStorage;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    storage = new LocalDiskStorage(join(t.config.dataDir, 'files'));
  });
  afterAll(async () => t.close());

  async function gameWithFiles(files: { path: string; content: Buffer | string }[]): Promise<{ game: Game; files: GameFile[] }> {
    const created = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Gen Game', description: 'x', width: 480, height: 640 },
    });
    const game = created.json<Game>();
    const body = new FormData();
    for (const file of files) {
      body.append('fullPath', file.path);
      body.append('file', new Blob([file.content]), file.path);
    }
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const list = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<GameFile[]>();
    const index = list.find((f) => f.path.endsWith('.html'));
    if (index) await call(t, 'PATCH', `/api/games/${game.id}/files/${index.fileId}/index`, { token: admin.token });
    return { game, files: list };
  }

  async function waitForStatus(id: number, done = (s: number) => s !== GameStatus.Generating): Promise<Game> {
    for (let i = 0; i < 200; i++) {
      const game = (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();
      if (done(game.gameStatusTypeId)) return game;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('generation did not finish');
  }

  async function storageKeyOf(file: GameFile): Promise<string> {
    const row = await t.database.db.selectFrom('gameFiles').select('storageKey').where('id', '=', file.id).executeTakeFirstOrThrow();
    return row.storageKey;
  }

  it('generates skeleton and watermark copies in the background, then the game is Ready', async () => {
    const images = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        sharp({ create: { width: 50 + i, height: 40, channels: 3, background: { r: 10 * i, g: 100, b: 200 } } }).png().toBuffer(),
      ),
    );
    const { game, files } = await gameWithFiles([
      { path: 'g/index.html', content: '<canvas></canvas>' },
      { path: 'g/photo.jpg', content: await sharp({ create: { width: 30, height: 20, channels: 3, background: 'orange' } }).jpeg().toBuffer() },
      ...images.map((content, i) => ({ path: `g/img/${i}.png`, content })),
    ]);
    const first = await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect(first.statusCode).toBe(200);
    expect(first.json<Game>().gameStatusTypeId).toBe(GameStatus.Generating);
    // A second press while it runs starts no second job and keeps the game Generating.
    const second = await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect(second.json<Game>().gameStatusTypeId).toBe(GameStatus.Generating);

    const ready = await waitForStatus(game.id);
    expect(ready).toMatchObject({ gameStatusTypeId: GameStatus.Ready, statusReason: null });

    for (const file of files.filter((f) => f.width !== null)) {
      const key = await storageKeyOf(file);
      for (const variant of ['skeleton', 'watermark'] as const) {
        const object = await storage.get(variantKey(key, variant));
        expect(object, `${variant} of ${file.path}`).toBeDefined();
        const meta = await sharp(await buffer(object!.stream)).metadata();
        expect([meta.width, meta.height], `${variant} of ${file.path}`).toEqual([file.width, file.height]);
        expect(meta.format).toBe(file.path.endsWith('.jpg') ? 'jpeg' : 'png');
      }
    }
    const html = files.find((f) => f.path === 'g/index.html')!;
    expect(await storage.get(variantKey(await storageKeyOf(html), 'skeleton'))).toBeUndefined();
  });

  it('a broken stored image fails the generation with the reason kept', async () => {
    const { game, files } = await gameWithFiles([
      { path: 'index.html', content: '<p>' },
      { path: 'a.png', content: await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } }).png().toBuffer() },
    ]);
    const png = files.find((f) => f.path === 'a.png')!;
    writeFileSync(join(t.config.dataDir, 'files', ...(await storageKeyOf(png)).split('/')), 'garbage');
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    const failed = await waitForStatus(game.id);
    expect(failed.gameStatusTypeId).toBe(GameStatus.Failed);
    expect(failed.statusReason).toContain('a.png');
  });

  it('a game without an index file is refused with a clear error, and a file change keeps a Ready game Ready (issue 25)', async () => {
    const { game } = await gameWithFiles([{ path: 'b.png', content: await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } }).png().toBuffer() }]);
    const refused = await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused).details?.[0]?.message).toContain('index');

    const { game: ready } = await gameWithFiles([{ path: 'index.html', content: '<p>' }]);
    await call(t, 'GET', `/api/games/${ready.id}/generate`, { token: admin.token });
    expect((await waitForStatus(ready.id)).gameStatusTypeId).toBe(GameStatus.Ready);
    const body = new FormData();
    body.append('fullPath', 'extra.js');
    body.append('file', new Blob(['1']), 'extra.js');
    await t.app.inject({ method: 'POST', url: `/api/game/upload/${ready.id}`, headers: { authorization: `Bearer ${admin.token}` }, payload: body });
    expect((await call(t, 'GET', `/api/games/${ready.id}`, { token: admin.token })).json<Game>().gameStatusTypeId).toBe(GameStatus.Ready);
  });
});
