import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, type Game, type GameFile } from '@reskin/contract';
import { variantKey } from '../src/lib/images/copy-keys';
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

  async function gameWithFiles(
    files: { path: string; content: Buffer | string }[],
  ): Promise<{ game: Game; files: GameFile[] }> {
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
    const list = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const index = list.find((f) => f.path.endsWith('.html'));
    if (index)
      await call(t, 'PATCH', `/api/games/${game.id}/files/${index.fileId}/index`, { token: admin.token });
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
    const row = await t.database.db
      .selectFrom('gameFiles')
      .select('storageKey')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    return row.storageKey;
  }

  it('generates skeleton and watermark copies in the background, then the game is Ready', async () => {
    const images = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        sharp({
          create: { width: 50 + i, height: 40, channels: 3, background: { r: 10 * i, g: 100, b: 200 } },
        })
          .png()
          .toBuffer(),
      ),
    );
    const { game, files } = await gameWithFiles([
      { path: 'g/index.html', content: '<canvas></canvas>' },
      {
        path: 'g/photo.jpg',
        content: await sharp({ create: { width: 30, height: 20, channels: 3, background: 'orange' } })
          .jpeg()
          .toBuffer(),
      },
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

  it("a sprite sheet's watermarked copy marks inside every frame (a 12x12 sprite too) and its skeleton stays blank, after Gen. and after the sheet is replaced", async () => {
    const rects = [
      { x: 2, y: 2, w: 12, h: 12 },
      { x: 18, y: 2, w: 24, h: 16 },
      { x: 2, y: 22, w: 100, h: 60 },
      { x: 110, y: 22, w: 16, h: 40 },
    ];
    const descriptor = JSON.stringify({
      frames: Object.fromEntries(
        rects.map((rect, i) => [
          `sprite${i}.png`,
          {
            frame: rect,
            rotated: false,
            trimmed: false,
            spriteSourceSize: { x: 0, y: 0, w: rect.w, h: rect.h },
            sourceSize: { w: rect.w, h: rect.h },
          },
        ]),
      ),
      meta: { image: 'sheet.png', size: { w: 128, h: 96 }, format: 'RGBA8888', scale: '1' },
    });
    const sheet = (colour: string) =>
      sharp({ create: { width: 128, height: 96, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .composite(
          rects.map(({ x, y, w, h }) => ({
            input: { create: { width: w, height: h, channels: 4 as const, background: colour } },
            left: x,
            top: y,
          })),
        )
        .png()
        .toBuffer();
    const first = await sheet('#2a7');
    const { game, files } = await gameWithFiles([
      { path: 'index.html', content: '<canvas></canvas>' },
      { path: 'art/sheet.json', content: descriptor },
      { path: 'art/sheet.png', content: first },
    ]);
    const png = files.find((f) => f.path === 'art/sheet.png')!;
    const copiesOf = async () => {
      const key = await storageKeyOf(png);
      const [skeleton, watermark] = await Promise.all(
        (['skeleton', 'watermark'] as const).map(async (variant) =>
          buffer((await storage.get(variantKey(key, variant)))!.stream),
        ),
      );
      return { skeleton: skeleton!, watermark: watermark! };
    };
    const expectMarked = async (original: Buffer) => {
      const { skeleton, watermark } = await copiesOf();
      const meta = await sharp(watermark).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 96]);
      const [before, after] = await Promise.all(
        [original, watermark].map((image) => sharp(image).ensureAlpha().raw().toBuffer()),
      );
      for (const { x, y, w, h } of rects) {
        let changed = 0;
        for (let row = y; row < y + h; row++) {
          for (let column = x; column < x + w; column++) {
            const at = (row * 128 + column) * 4;
            if ([0, 1, 2, 3].some((c) => Math.abs(before![at + c]! - after![at + c]!) > 24)) changed++;
          }
        }
        expect(changed, `frame ${w}x${h} at ${x},${y}`).toBeGreaterThanOrEqual((w * h) / 20);
      }
      expect((await sharp(skeleton).stats()).channels[3]!.max).toBe(0);
    };

    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect((await waitForStatus(game.id)).gameStatusTypeId).toBe(GameStatus.Ready);
    await expectMarked(first);

    // Replaced on the Ready game: the incremental copies (decision 0024) mark the frames too.
    const second = await sheet('#c42');
    const body = new FormData();
    body.append('fullPath', 'art/sheet.png');
    body.append('file', new Blob([second]), 'art/sheet.png');
    const replaced = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    for (let i = 0; i < 200; i++) {
      const now = (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>();
      if (now.copiesCurrent === now.copiesTotal) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>(),
    ).toMatchObject({ gameStatusTypeId: GameStatus.Ready, copiesCurrent: 1, copiesTotal: 1 });
    await expectMarked(second);
  });

  it('a broken stored image fails the generation with the reason kept', async () => {
    const { game, files } = await gameWithFiles([
      { path: 'index.html', content: '<p>' },
      {
        path: 'a.png',
        content: await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
          .png()
          .toBuffer(),
      },
    ]);
    const png = files.find((f) => f.path === 'a.png')!;
    writeFileSync(join(t.config.dataDir, 'files', ...(await storageKeyOf(png)).split('/')), 'garbage');
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    const failed = await waitForStatus(game.id);
    expect(failed.gameStatusTypeId).toBe(GameStatus.Failed);
    expect(failed.statusReason).toContain('a.png');
  });

  it('a game without an index file is refused with a clear error, and a file change keeps a Ready game Ready', async () => {
    const { game } = await gameWithFiles([
      {
        path: 'b.png',
        content: await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
          .png()
          .toBuffer(),
      },
    ]);
    const refused = await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused).details?.[0]?.message).toContain('index');

    const { game: ready } = await gameWithFiles([{ path: 'index.html', content: '<p>' }]);
    await call(t, 'GET', `/api/games/${ready.id}/generate`, { token: admin.token });
    expect((await waitForStatus(ready.id)).gameStatusTypeId).toBe(GameStatus.Ready);
    const body = new FormData();
    body.append('fullPath', 'extra.js');
    body.append('file', new Blob(['1']), 'extra.js');
    await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${ready.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(
      (await call(t, 'GET', `/api/games/${ready.id}`, { token: admin.token })).json<Game>().gameStatusTypeId,
    ).toBe(GameStatus.Ready);
  });
});
