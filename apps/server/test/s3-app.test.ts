import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  errorCodes,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { copyPreviewKeys, variantKey } from '../src/lib/images/copy-keys';
import { S3Storage } from '../src/storage/s3-storage';
import {
  call,
  createTestApp,
  createUser,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { startS3Server, type S3Server } from './support/s3-server';
import { solidPng } from './support/image-samples';
import { readZip } from './support/zip-entries';

// The whole app with STORAGE=s3 on a real S3 protocol server: upload, generation, the play origin
// (with range requests), a version's upload and zip, the services update. Nothing in these paths may assume a
// local disk. The database does not matter here (the two-server test runs S3 with PostgreSQL): SQLite pass only.

describe.runIf(testDb === 'sqlite')('the app on S3-compatible storage', () => {
  let s3: S3Server;
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let files: GameFile[];
  /** A sound of 100 KB whose bytes are their own offsets (mod 251), so any range can be checked. */
  const sound = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
  const hero = () => solidPng(64, 48, 'orange');

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ storage: s3.storageConfig });
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'On S3', description: 'x', width: 480, height: 640 },
      })
    ).json<Game>();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><title>On S3</title>' },
        { path: 'img/hero.png', content: await hero() },
        { path: 'sfx/theme.ogg', content: Buffer.concat([Buffer.from('OggS'), sound.subarray(4)]) },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<GameFile[]>();
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const playPath = (url: string) => new URL(url).pathname;
  const play = (url: string, headers: Record<string, string> = {}) =>
    t.playApp.inject({ method: 'GET', url, headers });

  it('generates the copies into the bucket and nothing onto the local disk', async () => {
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().gameStatusTypeId,
    ).toBe(GameStatus.Ready);
    const storage = await S3Storage.open(s3.storageConfig);
    const keys: string[] = [];
    for await (const { key } of storage.list()) keys.push(key);
    storage.close();
    const png = files.find((f) => f.path === 'img/hero.png')!;
    const { storageKey } = await t.database.db
      .selectFrom('gameFiles')
      .select('storageKey')
      .where('id', '=', png.id)
      .executeTakeFirstOrThrow();
    expect(keys).toEqual(
      expect.arrayContaining([
        storageKey,
        variantKey(storageKey, 'skeleton'),
        variantKey(storageKey, 'watermark'),
        ...copyPreviewKeys(storageKey),
      ]),
    );
    // index.html, the sound, the image with its two copies and its five previews.
    expect(keys).toHaveLength(10);
    expect(storedKeys(t)).toEqual([]);
  });

  it('the play origin serves from the bucket: whole files, and ranges of a sound for seeking (206, 416)', async () => {
    const paths = (
      await call(t, 'GET', `/api/games/${game.id}/path`, { token: admin.token })
    ).json<GamePath>();
    const base = playPath(paths.rootPath);
    const marked = await play(`${base}img/hero.png`);
    expect(marked.statusCode).toBe(200);
    expect(marked.headers['accept-ranges']).toBe('bytes');
    expect(await sharp(marked.rawPayload).metadata()).toMatchObject({ width: 64, height: 48 });

    const whole = await play(`${base}sfx/theme.ogg`);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.subarray(4).equals(sound.subarray(4))).toBe(true);

    const middle = await play(`${base}sfx/theme.ogg`, { range: 'bytes=50000-50999' });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe('bytes 50000-50999/100000');
    expect(middle.headers['content-length']).toBe('1000');
    expect(middle.rawPayload.equals(sound.subarray(50_000, 51_000))).toBe(true);

    const tail = await play(`${base}sfx/theme.ogg`, { range: 'bytes=-100' });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe('bytes 99900-99999/100000');
    expect(tail.rawPayload.equals(sound.subarray(99_900))).toBe(true);

    const rest = await play(`${base}sfx/theme.ogg`, { range: 'bytes=99990-' });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(sound.subarray(99_990))).toBe(true);

    const past = await play(`${base}sfx/theme.ogg`, { range: 'bytes=100000-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */100000');
    expect(past.json<{ error: { code: string } }>().error.code).toBe(errorCodes.rangeNotSatisfiable);

    // A range for another version of the file (If-Range with an old validator) gets the whole file.
    const stale = await play(`${base}sfx/theme.ogg`, { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload).toHaveLength(100_000);
  });

  it("an artist's version upload goes to the bucket and downloads as a zip", async () => {
    const assigned = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 10 },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const created = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: {
        name: 'Blue',
        description: 'Made on S3',
        gameId: game.id,
        userGamesId: assigned.json<UserGame>().id,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const version = created.json<GameVersion>();
    const png = files.find((f) => f.path === 'img/hero.png')!;
    const replacement = await solidPng(64, 48, 'navy');
    const form = new FormData();
    form.append('fullPath', png.path);
    form.append('file', new Blob([replacement]), 'hero.png');
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${png.fileId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: form,
    });
    expect(upload.statusCode, upload.body).toBe(200);

    const zip = await call(t, 'GET', `/api/files/${version.id}/${game.id}/files.zip`, {
      token: artist.token,
    });
    expect(zip.statusCode).toBe(200);
    const entries = await readZip(zip.rawPayload);
    expect([...entries.keys()]).toEqual(['img/hero.png']);
    expect(entries.get('img/hero.png')!.equals(replacement)).toBe(true);
    expect(storedKeys(t)).toEqual([]);
  });

  it('the services update removes old orphans from the bucket (paged listing, batched deletes) and regenerates a lost copy', async () => {
    const storage = await S3Storage.open(s3.storageConfig, 2);
    const png = files.find((f) => f.path === 'img/hero.png')!;
    const { storageKey } = await t.database.db
      .selectFrom('gameFiles')
      .select('storageKey')
      .where('id', '=', png.id)
      .executeTakeFirstOrThrow();
    await storage.delete(variantKey(storageKey, 'skeleton'));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (let i = 0; i < 3; i++) {
      await storage.put(`games/stray/old-${i}.bin`, Readable.from([Buffer.from('old')]));
      s3.setLastModified(`games/stray/old-${i}.bin`, twoHoursAgo);
    }
    await storage.put('games/stray/new.bin', Readable.from([Buffer.from('new')]));

    const update = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json()).toEqual({
      regeneratedGameIds: [game.id],
      removedStoredFiles: 3,
      failedGenerationIds: [],
      removedHistoryEntries: 0,
      recomposedSheets: 0,
    });
    await t.generation.idle();
    const left: string[] = [];
    for await (const { key } of storage.list('games/stray/')) left.push(key);
    expect(left).toEqual(['games/stray/new.bin']);
    // Made again under a new name (decision 0046).
    const { copiesKey } = await t.database.db
      .selectFrom('gameFiles')
      .select('copiesKey')
      .where('id', '=', png.id)
      .executeTakeFirstOrThrow();
    expect(copiesKey).not.toBe(storageKey);
    expect(await storage.stat(variantKey(copiesKey!, 'skeleton'))).toBeDefined();
    storage.close();
  });
});
