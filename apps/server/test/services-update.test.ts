import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, type Game, type GameFile } from '@reskin/contract';
import { variantKey } from '../src/lib/images/copy-keys';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';

describe(`[API-1][ADM-7] GET /admin/update on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  const filesDir = () => join(t.config.dataDir, 'files');

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t.close());

  async function waitReady(id: number): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const game = (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();
      if (game.gameStatusTypeId === GameStatus.Ready) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('not ready');
  }

  it('re-generates a Ready game whose generated copies are missing, and removes old orphaned files only', async () => {
    const game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'U', description: 'x', width: 300, height: 400 },
      })
    ).json<Game>();
    const body = new FormData();
    body.append('fullPath', 'index.html');
    body.append('file', new Blob(['<p>']), 'index.html');
    body.append('fullPath', 'a.png');
    body.append(
      'file',
      new Blob([
        await sharp({ create: { width: 5, height: 5, channels: 3, background: 'red' } })
          .png()
          .toBuffer(),
      ]),
      'a.png',
    );
    await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await waitReady(game.id);

    // Nothing to do on a healthy store.
    const idle = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(idle.json()).toEqual({
      regeneratedGameIds: [],
      removedStoredFiles: 0,
      failedGenerationIds: [],
      removedHistoryEntries: 0,
      recomposedSheets: 0,
    });

    // A lost skeleton makes the game stale; an old orphan goes, a fresh one (an upload in progress) stays.
    const png = await t.database.db
      .selectFrom('gameFiles')
      .select('storageKey')
      .where('path', '=', 'a.png')
      .executeTakeFirstOrThrow();
    const skeleton = join(filesDir(), ...variantKey(png.storageKey, 'skeleton').split('/'));
    rmSync(skeleton);
    mkdirSync(join(filesDir(), 'games', 'stray'), { recursive: true });
    const oldOrphan = join(filesDir(), 'games', 'stray', 'old.bin');
    const newOrphan = join(filesDir(), 'games', 'stray', 'new.bin');
    writeFileSync(oldOrphan, 'old');
    writeFileSync(newOrphan, 'new');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(oldOrphan, twoHoursAgo, twoHoursAgo);

    const update = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toEqual({
      regeneratedGameIds: [game.id],
      removedStoredFiles: 1,
      failedGenerationIds: [],
      removedHistoryEntries: 0,
      recomposedSheets: 0,
    });
    expect(existsSync(oldOrphan)).toBe(false);
    expect(existsSync(newOrphan)).toBe(true);
    await waitReady(game.id);
    // Made again under a new name (decision 0046): the play origin serves it.
    const { copiesKey } = await t.database.db
      .selectFrom('gameFiles')
      .select('copiesKey')
      .where('path', '=', 'a.png')
      .executeTakeFirstOrThrow();
    expect(copiesKey).not.toBe(png.storageKey);
    expect(existsSync(join(filesDir(), ...variantKey(copiesKey!, 'skeleton').split('/')))).toBe(true);
  });

  it('removes the .partial files of writes cut off an hour ago or more, not those still being written', async () => {
    // What LocalDiskStorage leaves when the process dies while it streams an upload to `<key>.<random>.partial`.
    mkdirSync(join(filesDir(), 'games', 'crashed', 'files'), { recursive: true });
    const abandoned = join(filesDir(), 'games', 'crashed', 'files', 'a1b2.png.0123456789ab.partial');
    const writing = join(filesDir(), 'games', 'crashed', 'files', 'c3d4.png.ba9876543210.partial');
    writeFileSync(abandoned, 'half a png');
    writeFileSync(writing, 'half a png');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(abandoned, twoHoursAgo, twoHoursAgo);

    const update = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.json()).toEqual({
      regeneratedGameIds: [],
      removedStoredFiles: 1,
      failedGenerationIds: [],
      removedHistoryEntries: 0,
      recomposedSheets: 0,
    });
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(writing)).toBe(true);
  });
});
