import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import {
  GameStatus,
  RoleType,
  type AtlasFrame,
  type GameAtlases,
  type GameFile,
  type GamePath,
} from '@reskin/contract';
import { Api, createUser, type TestUser } from '../fixtures/api';
import { createGame, deleteGame, filesOf, gameById, markIndex, waitForStatus } from '../fixtures/games';
import { playRequest } from '../fixtures/play';
import { readZip } from '../fixtures/zips';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';
import { wav } from '../fixtures/workbench';
import { buildFiles, corpusGames, type CorpusGame } from './corpus';

/**
 * The gate every feature passes: each whole game of the corpus (corpus.ts), at full size, through what the studio
 * does with it, on the database this run's server uses (scripts/test.mjs runs it on SQLite and on PostgreSQL).
 */

const test = base.extend<{ api: Api }>({
  api: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    await use(new Api(request));
    await request.dispose();
  },
});

/** The colours an artist's replacements have here: nothing in a real game is exactly these. */
const newFrame: [number, number, number] = [255, 0, 255];
const newImage: [number, number, number] = [0, 255, 128];

/** Pixels where a channel differs by more than this are visibly different (JPEG noise stays below it). */
const visible = 24;
/** The least share of an image's pixels its watermarked copy changes (the corpus's lowest is 6.7 %). */
const leastMarked = 0.03;
/** Images of fewer pixels than an 8 x 8 square are not checked for a visible mark. */
const leastMarkedPixels = 64;

async function zipOf(buildDir: string): Promise<Buffer> {
  const zip = new ZipFile();
  for (const path of buildFiles(buildDir)) zip.addFile(join(buildDir, path), path);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A one-colour opaque image in the format of `path`'s extension (an artist's upload keeps its file's format). */
function solid(
  width: number,
  height: number,
  [r, g, b]: [number, number, number],
  path = 'x.png',
): Promise<Buffer> {
  const format =
    ({ jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp', gif: 'gif' } as const)[
      path.split('.').pop()!.toLowerCase()
    ] ?? 'png';
  return sharp({ create: { width, height, channels: 4, background: { r, g, b, alpha: 1 } } })
    .toFormat(format, format === 'webp' ? { lossless: true } : format === 'jpeg' ? { quality: 100 } : {})
    .toBuffer();
}

async function rgba(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image, { animated: false })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The share of pixels of `rect` (the whole image when none) where two RGBA images of one size differ visibly. */
function changedShare(
  a: { data: Buffer; width: number },
  b: { data: Buffer },
  rect?: { x: number; y: number; w: number; h: number },
): number {
  const { x, y, w, h } = rect ?? { x: 0, y: 0, w: a.width, h: a.data.length / 4 / a.width };
  let changed = 0;
  for (let row = y; row < y + h; row++) {
    for (let column = x; column < x + w; column++) {
      const at = (row * a.width + column) * 4;
      if ([0, 1, 2, 3].some((c) => Math.abs(a.data[at + c]! - b.data[at + c]!) > visible)) changed++;
    }
  }
  return changed / (w * h);
}

/** The share of `rect`'s pixels that are `colour`, opaque. */
function shareOf(
  image: { data: Buffer; width: number },
  rect: { x: number; y: number; w: number; h: number },
  [r, g, b]: [number, number, number],
): number {
  let matching = 0;
  for (let row = rect.y; row < rect.y + rect.h; row++) {
    for (let column = rect.x; column < rect.x + rect.w; column++) {
      const at = (row * image.width + column) * 4;
      const d = image.data;
      if (
        Math.abs(d[at]! - r) <= 2 &&
        Math.abs(d[at + 1]! - g) <= 2 &&
        Math.abs(d[at + 2]! - b) <= 2 &&
        d[at + 3] === 255
      )
        matching++;
    }
  }
  return matching / (rect.w * rect.h);
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

async function served(page: Page, root: string, path: string): Promise<Buffer> {
  const response = await playRequest(page, `${root}${encodePath(path)}`);
  expect(response.status(), `${path} from ${root}`).toBe(200);
  return response.body();
}

/**
 * Opens a view of the game in Chromium (the play URL itself, on the play origin) and waits until its canvas shows a
 * picture: a screenshot of it with more than a few colours.
 */
async function expectDraws(page: Page, url: string, game: CorpusGame, view: string): Promise<void> {
  await page.goto(url);
  const canvas = page.locator('canvas').first();
  await expect(canvas, `${view}: the game makes a canvas`).toBeAttached({ timeout: 30_000 });
  if (game.draws.click) await canvas.click({ force: true });
  await expect
    .poll(
      async () => {
        // The page, not the canvas element: a WebGL canvas without a kept drawing buffer reads back empty.
        const { data } = await rgba(await page.screenshot());
        const colours = new Set<number>();
        for (let i = 0; i < data.length && colours.size < 64; i += 4)
          colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        return colours.size;
      },
      { timeout: 30_000 + game.draws.waitMs, message: `${view}: the canvas of ${game.name} draws a picture` },
    )
    .toBeGreaterThan(8);
}

async function asJson<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

for (const game of corpusGames()) {
  test(`[gate] ${game.slug}: zip upload, engine, Gen., previews, both views draw, an artist's frame, image and sound replaced, played, zipped; every image watermarked`, async ({
    page,
    api,
  }) => {
    test.skip(!game.buildDir, `the build of ${game.slug} is not on this machine (corpus/README.md)`);
    test.setTimeout(600_000);
    const buildDir = game.buildDir!;
    const admin = await api.asAdmin();
    const created = await createGame(api, {
      name: `Gate ${game.slug} ${Date.now()}`,
      width: 800,
      height: 600,
    });
    let artist: TestUser | undefined;
    let userGameId: number | undefined;
    try {
      // Zip upload of the whole build; the engine is named.
      const uploaded = await api.postMultipart(
        `/game/upload-zip/${created.id}`,
        { file: { name: `${game.slug}.zip`, mimeType: 'application/zip', buffer: await zipOf(buildDir) } },
        admin,
      );
      expect(uploaded.status(), await uploaded.text()).toBe(200);
      const files = await filesOf(api, created.id);
      expect(files.map((file) => file.path).sort()).toEqual(buildFiles(buildDir));
      await expect
        .poll(async () => (await gameById(api, created.id)).engine, { message: 'the engine is named' })
        .toBe(game.engine);

      // Gen. -> Ready.
      await markIndex(api, created.id, files.find((file) => file.path === game.index)!.fileId);
      const generated = await api.get(`/games/${created.id}/generate`, admin);
      expect(generated.status(), await generated.text()).toBe(200);
      await waitForStatus(api, created.id, GameStatus.Ready, 300_000);

      // Previews and thumbnails of every raster image exist.
      const images = (await filesOf(api, created.id)).filter(
        (file) => file.width !== null && !file.path.toLowerCase().endsWith('.svg'),
      );
      for (const file of images) {
        expect(file.previews, `${file.path} has previews`).toBeTruthy();
        for (const url of [
          file.previews!.preview,
          file.previews!.thumbnail,
          file.previews!.skeletonPreview,
        ]) {
          const response = await page.request.get(url);
          expect(response.status(), `${file.path}: ${url}`).toBe(200);
          expect(response.headers()['content-type']).toBe('image/webp');
        }
      }

      // The original (the admin's) and the watermarked view (the artist's) draw in Chromium.
      artist = await createUser(api, RoleType.User);
      const userGame = await createUserGame(api, { userId: artist.id, gameId: created.id });
      userGameId = userGame.id;
      const original = await asJson<GamePath>(await api.get(`/games/${created.id}/path`, admin));
      const watermarked = await asJson<GamePath>(await api.get(`/games/${created.id}/path`, artist.token));
      await expectDraws(page, original.orjFile, game, 'the original view');
      await expectDraws(page, watermarked.orjFile, game, 'the watermarked view');

      // The watermarked copy of every image differs visibly from its original (an image of a few pixels, a spacer
      // GIF, has no room for a visible mark).
      const unmarked: string[] = [];
      for (const file of images.filter((image) => image.width! * image.height! >= leastMarkedPixels)) {
        const [before, after] = await Promise.all([
          served(page, original.rootPath, file.path).then(rgba),
          served(page, watermarked.rootPath, file.path).then(rgba),
        ]);
        expect([after.width, after.height]).toEqual([before.width, before.height]);
        const share = changedShare(before, after);
        if (share < leastMarked) unmarked.push(`${file.path} (${(share * 100).toFixed(1)} %)`);
      }
      expect(unmarked, 'images whose watermarked copy looks like the original').toEqual([]);

      // The artist replaces one frame of every atlas, one whole image and one sound.
      const version = await createVersion(api, artist.token, userGame, 'Gate version');
      const atlases = await asJson<GameAtlases>(await api.get(`/games/${created.id}/atlases`, artist.token));
      const fileOf = (path: string): GameFile => {
        const found = images.find((file) => file.path === path) ?? files.find((file) => file.path === path);
        if (!found) throw new Error(`${game.slug} has no ${path}`);
        return found;
      };
      const frames: { sheet: string; frame: AtlasFrame; neighbour: AtlasFrame }[] = [];
      for (const wanted of game.atlases) {
        const atlas = atlases.atlases.find((found) => found.descriptor === wanted.descriptor);
        expect(
          atlas,
          `${wanted.descriptor} is recognised (problems: ${JSON.stringify(atlases.problems)})`,
        ).toBeTruthy();
        const byName = (name: string) => atlas!.frames.find((frame) => frame.name === name);
        const [frame, neighbour] = [byName(wanted.frame), byName(wanted.neighbour)];
        expect(
          frame && neighbour,
          `${wanted.frame} and ${wanted.neighbour} in ${wanted.descriptor}`,
        ).toBeTruthy();
        const sheet = atlas!.pages[frame!.page]!;
        expect([sheet.image, sheet.width, sheet.height]).toEqual([wanted.sheet, ...wanted.sheetSize]);
        const replaced = await api.postMultipart(
          `/game-version/upload-frame/${version.id}/${sheet.fileId}`,
          {
            frame: frame!.name,
            file: {
              name: 'frame.png',
              mimeType: 'image/png',
              buffer: await solid(frame!.sourceSize.w, frame!.sourceSize.h, newFrame),
            },
          },
          artist.token,
        );
        expect(replaced.status(), await replaced.text()).toBe(200);
        frames.push({ sheet: sheet.image, frame: frame!, neighbour: neighbour! });
      }
      let image: { path: string; width: number; height: number } | undefined;
      if (game.image) {
        const file = fileOf(game.image);
        image = { path: file.path, width: file.width!, height: file.height! };
        const replaced = await api.postMultipart(
          `/game-version/upload/${version.id}/${file.fileId}`,
          {
            file: {
              name: file.path.split('/').pop()!,
              mimeType: 'application/octet-stream',
              buffer: await solid(image.width, image.height, newImage, file.path),
            },
          },
          artist.token,
        );
        expect(replaced.status(), await replaced.text()).toBeLessThan(300);
      }
      if (game.sound) {
        const replaced = await api.postMultipart(
          `/game-version/upload/${version.id}/${fileOf(game.sound).fileId}`,
          { file: { name: 'tone.wav', mimeType: 'audio/wav', buffer: wav(440, 8000) } },
          artist.token,
        );
        expect(replaced.status(), await replaced.text()).toBeLessThan(300);
      }

      // Play Your Version serves the artist the new pixels in each frame's rect and the neighbour frame as the
      // watermarked view shows it (never the original's pixels: decision 0049); it draws.
      const own = await asJson<GamePath>(
        await api.get(`/game-versions/path/${version.id}/${created.id}`, artist.token),
      );
      const checkSheets = async (
        read: (path: string) => Promise<Buffer>,
        reference: (path: string) => Promise<Buffer>,
      ) => {
        for (const { sheet, frame, neighbour } of frames) {
          const [after, before] = await Promise.all([read(sheet).then(rgba), reference(sheet).then(rgba)]);
          expect(shareOf(after, frame.rect, newFrame), `${frame.name} on ${sheet}`).toBeGreaterThanOrEqual(
            0.99,
          );
          expect(changedShare(before, after, neighbour.rect), `${neighbour.name} beside it`).toBe(0);
        }
        if (image)
          expect(
            shareOf(
              await rgba(await read(image.path)),
              { x: 0, y: 0, w: image.width, h: image.height },
              newImage,
            ),
          ).toBeGreaterThanOrEqual(0.99);
      };
      await checkSheets(
        (path) => served(page, own.rootPath, path),
        (path) => served(page, watermarked.rootPath, path),
      );
      await expectDraws(page, own.orjFile, game, 'Play Your Version');

      // The version's zip holds them.
      const zip = await page.request.get(`/api/files/${version.id}/${created.id}/files.zip`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(zip.status()).toBe(200);
      const entries = await readZip(await zip.body());
      const wanted = [
        ...new Set([
          ...frames.map(({ sheet }) => sheet),
          ...(image ? [image.path] : []),
          ...(game.sound ? [game.sound] : []),
        ]),
      ].sort();
      expect([...entries.keys()].sort()).toEqual(wanted);
      // The admin's zip is the deliverable: the frames on the original sheet.
      await checkSheets(
        async (path) => entries.get(path)!,
        async (path) => readFileSync(join(buildDir, path)),
      );
      if (game.sound)
        expect(entries.get(game.sound)!.equals(readFileSync(join(buildDir, game.sound)))).toBe(false);
    } finally {
      if (userGameId !== undefined) await deleteUserGame(api, userGameId);
      if (artist) await api.deleteUser(artist.id);
      await deleteGame(api, created.id);
    }
  });
}
