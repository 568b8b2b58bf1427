import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  GameStatus,
  RoleType,
  limits,
  type Game,
  type GameFile,
  type GameVersion,
  type MyGame,
  type VersionFile,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { previewKey } from '../src/lib/images/image-previews';
import { PreviewGrants } from '../src/lib/preview-grants';
import { variantKey } from '../src/lib/images/copy-keys';
import { makeCopiesWithPreviews } from '../src/lib/images/variants';
import { sampleImage } from './support/image-samples';
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

const { previewPixels, previewBytes, thumbnailPixels, thumbnailBytes } = limits.imagePreviews;

/**
 * A picture of random colour blocks of `block` px: 32 px blocks stay busy when shrunk (like dense art), 4 px ones
 * become noise at a preview's size (the worst case for its byte budget).
 */
async function busyPicture(
  width: number,
  height: number,
  format: 'png' | 'jpeg',
  block = 32,
): Promise<Buffer> {
  const small = randomBytes((width / block) * (height / block) * 3);
  const noise = await sharp(small, { raw: { width: width / block, height: height / block, channels: 3 } })
    .resize(width, height, { kernel: 'nearest' })
    .raw()
    .toBuffer();
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

async function sizeOf(image: Buffer): Promise<{ width: number; height: number; format: string }> {
  const { width, height, format } = await sharp(image).metadata();
  return { width, height, format };
}

describe('image previews: sizes and byte budgets (decision 0038)', () => {
  for (const format of ['png', 'jpeg'] as const) {
    it(`a 2048 px ${format.toUpperCase()}: previews of the original and the watermarked copy within ${previewPixels} px and about ${previewBytes} bytes, thumbnails within ${thumbnailPixels} px and ${thumbnailBytes} bytes`, async () => {
      const original = await busyPicture(2048, 1536, format);
      const { previews, watermark } = await makeCopiesWithPreviews(
        original,
        `art/big.${format === 'jpeg' ? 'jpg' : 'png'}`,
        'Reskin Studio',
      );
      expect(previews).toBeDefined();
      for (const of of [previews!.original, previews!.watermark]) {
        expect(await sizeOf(of.preview)).toEqual({ width: previewPixels, height: 360, format: 'webp' });
        expect(of.preview.length).toBeLessThanOrEqual(previewBytes);
        expect(await sizeOf(of.thumb)).toEqual({ width: thumbnailPixels, height: 72, format: 'webp' });
        expect(of.thumb.length).toBeLessThanOrEqual(thumbnailBytes);
      }
      // Noise at the preview's size: the budget holds all the same (the pixels shrink once the quality cannot).
      const noisy = await makeCopiesWithPreviews(
        await busyPicture(2048, 1536, format, 4),
        `art/noise.${format === 'jpeg' ? 'jpg' : 'png'}`,
        'Reskin Studio',
      );
      for (const of of [noisy.previews!.original, noisy.previews!.watermark]) {
        expect((await sizeOf(of.preview)).width).toBeLessThanOrEqual(previewPixels);
        expect(of.preview.length).toBeLessThanOrEqual(previewBytes);
        expect(of.thumb.length).toBeLessThanOrEqual(thumbnailBytes);
      }
      // The watermarked preview shows the mark: it is the watermarked copy made small, not the original's preview.
      const fromCopy = await sharp(watermark).resize(previewPixels).raw().toBuffer();
      const [marked, plain] = await Promise.all(
        [previews!.watermark.preview, previews!.original.preview].map((p) => sharp(p).raw().toBuffer()),
      );
      const distance = (a: Buffer, b: Buffer) =>
        a.reduce((sum, value, i) => sum + Math.abs(value - b[i]!), 0) / a.length;
      expect(distance(marked!, fromCopy)).toBeLessThan(distance(plain!, fromCopy));
      // The skeleton's preview: nothing drawn, transparent (light grey for JPEG, as its skeleton).
      const skeleton = await sharp(previews!.skeleton)
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([skeleton.info.width, skeleton.info.height]).toEqual([previewPixels, 360]);
      expect([...skeleton.data.subarray(0, 4)]).toEqual(
        format === 'jpeg' ? [211, 211, 211, 255] : [0, 0, 0, 0],
      );
    });
  }

  it('a small image is never enlarged; an animation gets still previews; an SVG none', async () => {
    const icon = await sampleImage('png', 60, 60);
    const small = await makeCopiesWithPreviews(icon.content, 'icons/60.png', 'Reskin Studio');
    expect(await sizeOf(small.previews!.original.preview)).toEqual({ width: 60, height: 60, format: 'webp' });
    expect(await sizeOf(small.previews!.original.thumb)).toEqual({ width: 60, height: 60, format: 'webp' });
    const frame = (background: string) =>
      sharp({ create: { width: 600, height: 300, channels: 4, background } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('red'), await frame('blue')], { join: { animated: true } })
      .gif({ delay: [100, 200], loop: 0 })
      .toBuffer();
    const anim = await makeCopiesWithPreviews(gif, 'anim.gif', 'Reskin Studio');
    for (const preview of [anim.previews!.original.preview, anim.previews!.watermark.preview]) {
      const { width, height, pages } = await sharp(preview).metadata();
      expect({ width, height, pages: pages ?? 1 }).toEqual({ width: previewPixels, height: 240, pages: 1 });
    }
    // The first frame (red), not the frames stacked.
    const [r, g, b] = await sharp(anim.previews!.original.preview).raw().toBuffer();
    expect(r).toBeGreaterThan(200);
    expect(g! + b!).toBeLessThan(60);
    const svg = await makeCopiesWithPreviews(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"></svg>'),
      'logo.svg',
      'Reskin Studio',
    );
    expect(svg.previews).toBeUndefined();
  });
});

describe(`image previews through the app on ${testDb} (decision 0038)`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let files: GameFile[];

  const fileRow = (file: GameFile) =>
    t.database.db
      .selectFrom('gameFiles')
      .select(['storageKey', 'copiesKey'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();

  /** An active assignment of the game to `user`, and a version of theirs. */
  async function assign(user: TestUser): Promise<GameVersion> {
    const now = nowIso();
    const userGame = await t.database.db
      .insertInto('userGames')
      .values({
        userId: user.id,
        gameId: game.id,
        userGameTypeId: 1,
        jobPrice: 10,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const version = await call(t, 'POST', '/api/game-versions', {
      token: user.token,
      payload: { name: 'Mine', description: 'My look', gameId: game.id, userGamesId: Number(userGame.id) },
    });
    expect(version.statusCode, version.body).toBe(201);
    return version.json<GameVersion>();
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const filesOf = async (user: TestUser) => {
    const listed = await call(t, 'GET', `/api/games/${game.id}/files`, { token: user.token });
    expect(listed.statusCode, listed.body).toBe(200);
    return listed.json<GameFile[]>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    artist = await createUser(t);
    game = await createGame(t, admin.token, { name: 'Previews', description: 'x', width: 480, height: 640 });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><canvas></canvas>' },
        { path: 'art/hero.png', content: await busyPicture(2048, 1536, 'png') },
        { path: 'art/sky.jpg', content: await busyPicture(2048, 1024, 'jpeg') },
        {
          path: 'art/logo.svg',
          content: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"></svg>',
        },
        { path: 'data.json', content: '{}' },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    files = await filesOf(admin);
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((f) => f.path === 'art/hero.png')!.fileId}/splash`,
      { token: admin.token },
    );
  });
  afterAll(async () => t?.close());

  it("a Draft game: the admin sees the originals' previews, made on first request (the skeleton's from the original's size)", async () => {
    const hero = (await filesOf(admin)).find((f) => f.path === 'art/hero.png')!;
    expect(hero.previews).toBeTruthy();
    const { storageKey } = await fileRow(hero);
    expect(storedKeys(t)).not.toContain(previewKey(storageKey, 'preview'));
    const preview = await get(hero.previews!.preview);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.headers['content-type']).toBe('image/webp');
    expect(await sizeOf(preview.rawPayload)).toEqual({ width: previewPixels, height: 360, format: 'webp' });
    expect(storedKeys(t)).toContain(previewKey(storageKey, 'preview'));
    const skeleton = await get(hero.previews!.skeletonPreview);
    expect(skeleton.statusCode, skeleton.body).toBe(200);
    expect(await sizeOf(skeleton.rawPayload)).toEqual({ width: previewPixels, height: 360, format: 'webp' });
  });

  it('generation makes the previews of the original, the watermarked copy and the skeleton; the answers carry them as each role sees them', async () => {
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().gameStatusTypeId,
    ).toBe(GameStatus.Ready);
    await assign(artist);
    const keys = storedKeys(t);
    for (const path of ['art/hero.png', 'art/sky.jpg']) {
      const { storageKey } = await fileRow(files.find((f) => f.path === path)!);
      const watermark = variantKey(storageKey, 'watermark');
      for (const key of [
        previewKey(storageKey, 'preview'),
        previewKey(storageKey, 'thumb'),
        previewKey(watermark, 'preview'),
        previewKey(watermark, 'thumb'),
        previewKey(variantKey(storageKey, 'skeleton'), 'preview'),
      ]) {
        expect(keys, `${path}: ${key}`).toContain(key);
      }
    }

    const [mine, theirs] = [await filesOf(admin), await filesOf(artist)];
    for (const list of [mine, theirs]) {
      expect(list.find((f) => f.path === 'art/logo.svg')!.previews).toBeNull();
      expect(list.find((f) => f.path === 'data.json')!.previews).toBeNull();
      expect(list.find((f) => f.path === 'index.html')!.previews).toBeNull();
    }
    const heroOf = (list: GameFile[]) => list.find((f) => f.path === 'art/hero.png')!.previews!;
    const { storageKey } = await fileRow(files.find((f) => f.path === 'art/hero.png')!);
    const stored = (key: string) => readFileSync(join(t.config.dataDir, 'files', key));
    // Admins see the original, artists only ever the watermarked copy.
    expect(
      (await get(heroOf(mine).preview)).rawPayload.equals(stored(previewKey(storageKey, 'preview'))),
    ).toBe(true);
    expect(
      (await get(heroOf(mine).thumbnail)).rawPayload.equals(stored(previewKey(storageKey, 'thumb'))),
    ).toBe(true);
    const watermark = variantKey(storageKey, 'watermark');
    expect(
      (await get(heroOf(theirs).preview)).rawPayload.equals(stored(previewKey(watermark, 'preview'))),
    ).toBe(true);
    expect(
      (await get(heroOf(theirs).thumbnail)).rawPayload.equals(stored(previewKey(watermark, 'thumb'))),
    ).toBe(true);
    // One answer signs with one token version: every URL of it is the same until the day ends.
    expect(heroOf(await filesOf(artist))).toEqual(heroOf(theirs));

    // The admin's games list carries the splash's thumbnail; My Games the splash's preview on this origin.
    const listed = await call(t, 'POST', '/api/games/filter', {
      token: admin.token,
      payload: { where: { id: game.id } },
    });
    const thumbnailUrl = listed.json<Game[]>()[0]!.thumbnailUrl!;
    expect(thumbnailUrl).toMatch(/^\/api\/previews\/[^/]+\/thumb\.webp$/);
    expect((await get(thumbnailUrl)).rawPayload.equals(stored(previewKey(storageKey, 'thumb')))).toBe(true);
    const cards = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<
      MyGame[]
    >();
    expect(cards[0]!.imageUrl).toMatch(/^\/api\/previews\/[^/]+\/preview\.webp$/);
    expect((await get(cards[0]!.imageUrl!)).rawPayload.equals(stored(previewKey(watermark, 'preview')))).toBe(
      true,
    );
  });

  it('the route answers WebP with private caching until the grant ends and a strong ETag (304 when current)', async () => {
    const url = (await filesOf(artist)).find((f) => f.path === 'art/sky.jpg')!.previews!.preview;
    const answer = await get(url);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/webp');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(answer.headers['cache-control']))?.[1]);
    // Made today, it ends at the end of tomorrow (UTC): between one and two days from now.
    expect(maxAge).toBeGreaterThan(24 * 3600 - 60);
    expect(maxAge).toBeLessThanOrEqual(48 * 3600);
    const etag = String(answer.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it("a version's replacement: its preview is made on first request and stored; gone with the replacement", async () => {
    const ownerUser = await createUser(t);
    const version = await assign(ownerUser);
    const hero = files.find((f) => f.path === 'art/hero.png')!;
    const body = new FormData();
    body.append('file', new Blob([await busyPicture(2048, 1536, 'png')]), 'hero.png');
    const replaced = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${hero.fileId}`,
      headers: { authorization: `Bearer ${ownerUser.token}` },
      payload: body,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<VersionFile>().preview).toMatch(/^\/api\/previews\//);
    const listed = (
      await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: ownerUser.token })
    ).json<VersionFile[]>();
    const url = listed.find((f) => f.fileId === hero.fileId)!.preview!;
    const { storageKey } = await t.database.db
      .selectFrom('versionFiles')
      .select('storageKey')
      .where('gameVersionId', '=', version.id)
      .executeTakeFirstOrThrow();
    expect(storedKeys(t)).not.toContain(previewKey(storageKey, 'preview'));
    const made = await get(url);
    expect(made.statusCode, made.body).toBe(200);
    expect(await sizeOf(made.rawPayload)).toEqual({ width: previewPixels, height: 360, format: 'webp' });
    expect(storedKeys(t)).toContain(previewKey(storageKey, 'preview'));
    // Restore original: the replacement goes, with its preview; its URL is then a 404 in the envelope.
    const restored = await call(t, 'DELETE', `/api/game-versions/${version.id}/files/${hero.fileId}`, {
      token: ownerUser.token,
    });
    expect(restored.statusCode, restored.body).toBe(204);
    expect(storedKeys(t).filter((key) => key.startsWith(storageKey))).toEqual([]);
    const gone = await get(url);
    expect(gone.statusCode).toBe(404);
    expect(errorOf(gone).code).toBe('NOT_FOUND');
  });

  it("a forged, expired or other-named grant is a 404; the URL is its user's capability: it works without a session for whoever holds it", async () => {
    const url = (await filesOf(artist)).find((f) => f.path === 'art/hero.png')!.previews!.preview;
    const [, , , grant] = url.split('/');
    const flipped = `${grant!.slice(0, -2)}${grant!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [
      url.replace(grant!, flipped),
      url.replace('preview.webp', 'thumb.webp'),
      '/api/previews/x/preview.webp',
      '/api/previews/a.b/preview.webp',
    ]) {
      const answer = await get(bad);
      expect(answer.statusCode, bad).toBe(404);
      expect(errorOf(answer).code).toBe('NOT_FOUND');
    }
    const claims = new PreviewGrants(t.config.jwtSecret).verify(grant!)!;
    expect(claims.userId).toBe(artist.id);
    const expired = new PreviewGrants(t.config.jwtSecret).sign({
      ...claims,
      expiresAt: Math.floor(Date.now() / 1000 - 1) * 1000,
    });
    expect((await get(`/api/previews/${expired}/preview.webp`)).statusCode).toBe(404);
    // Another user (or nobody) with the artist's URL sees what the artist sees, as long as the artist may.
    const other = await createUser(t);
    expect((await get(url, { authorization: `Bearer ${other.token}` })).statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(200);
  });

  it('a suspended user or one with a new token version gets 403 on their preview URLs', async () => {
    for (const revoke of [
      (user: TestUser) =>
        call(t, 'PUT', '/api/user/update/password', {
          token: user.token,
          payload: { oldPassword: user.password, newPassword: 'N3w-password!' },
        }),
      (user: TestUser) => call(t, 'DELETE', '/api/user/disable', { token: user.token }),
    ]) {
      const user = await createUser(t);
      await assign(user);
      const url = (await filesOf(user)).find((f) => f.path === 'art/hero.png')!.previews!.preview;
      expect((await get(url)).statusCode).toBe(200);
      expect((await revoke(user)).statusCode).toBeLessThan(300);
      const refused = await get(url);
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused).code).toBe('FORBIDDEN');
    }
  });

  it('a preview whose source is gone is a 404, never a 500; deleting a file deletes its previews', async () => {
    const sky = files.find((f) => f.path === 'art/sky.jpg')!;
    const { storageKey } = await fileRow(sky);
    const urls = (await filesOf(admin)).find((f) => f.path === 'art/sky.jpg')!.previews!;
    expect(
      storedKeys(t).filter((key) => key.startsWith(`${storageKey}.`) && key.endsWith('.webp')),
    ).toHaveLength(5);
    const deleted = await call(t, 'DELETE', `/api/games/${game.id}/files/${sky.fileId}/`, {
      token: admin.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(storedKeys(t).filter((key) => key.startsWith(storageKey))).toEqual([]);
    for (const url of Object.values(urls)) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(errorOf(answer).code).toBe('NOT_FOUND');
    }
  });
});

describe.runIf(testDb === 'postgres')('image previews on two app servers on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('two servers asked for the same missing preview at once both answer 200 with it', async () => {
    a = await createTestApp();
    b = await createTestApp({}, { dataDir: a.config.dataDir, schema: a.schema });
    const admin = await createUser(a, RoleType.Admin);
    const game = await createGame(a, admin.token, {
      name: 'Two',
      description: 'x',
      width: 480,
      height: 640,
    });
    const uploaded = await a.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([{ path: 'big.png', content: await busyPicture(2048, 1536, 'png') }]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const url = (await call(a, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >()[0]!.previews!.preview;
    const answers = await Promise.all([a, b, a, b].map((app) => app.app.inject({ method: 'GET', url })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    for (const answer of answers)
      expect(await sizeOf(answer.rawPayload)).toEqual({
        width: previewPixels,
        height: 360,
        format: 'webp',
      });
  });
});
