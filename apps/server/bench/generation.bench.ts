import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { GameStatus, imageFormatOfName, imageFormats, limits, type Game } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { median } from './api.bench';
import { makePreview } from '../src/lib/images/image-previews';
import { forgetRenderedTiles, watermarkTile } from '../src/lib/images/marks';
import { copyEncoding, skeletonBackground } from '../src/lib/images/pipeline';
import { makeCopiesWithPreviews } from '../src/lib/images/variants';
import { imagesAtOnce } from '../src/modules/games/game-generation';

const formats = ['png', 'jpeg', 'webp', 'gif'] as const;

/** 200 images of mixed sizes (16 to 1280 px a side) and formats, drawn with a few shapes so they compress like art. */
async function makeImages(count: number): Promise<{ path: string; content: Buffer }[]> {
  const images: { path: string; content: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const width = 16 + ((i * 197) % 1265);
    const height = 16 + ((i * 331) % 1265);
    const format = formats[i % formats.length]!;
    const art = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        `<rect width="100%" height="100%" fill="hsl(${(i * 37) % 360},60%,50%)"/>` +
        `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="hsl(${(i * 91) % 360},70%,60%)"/></svg>`,
    );
    const content = await sharp(art).toFormat(format).toBuffer();
    images.push({ path: `img/${i}.${format === 'jpeg' ? 'jpg' : format}`, content });
  }
  return images;
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * What a plain script would do to make the copies of images in files on disk, with sharp alone (no database,
 * no HTTP, no storage layer): read the file, read its header for the size, make the skeleton with sharp's
 * `create` (it keeps none of the picture), composite the watermark's SVG tile, encode both with the app's
 * settings (copyEncoding: the encoder efforts are the product's choice, not an overhead) and write them next to
 * the original (no fsync), and the previews (decision 0038: each resized from its file's bytes), one image per core. What the app does better than this (a blank made from one pixel,
 * tiles rendered once, more images at once) counts in its favour; `sameWorkCopies` leaves it out.
 */
async function bareCopies(folder: string, paths: string[]): Promise<void> {
  await eachLimited(paths, availableParallelism(), async (path) => {
    const file = join(folder, path);
    const copy = imageFormats[imageFormatOfName(path)!].copiesAs;
    if (copy === 'svg') throw new Error('the bench makes no SVG');
    const input = await readFile(file);
    const image = sharp(input);
    const { width, height } = await image.metadata();
    const tile = Buffer.from(watermarkTile(width, height, 'Reskin Studio').svg);
    const [skeleton, watermark] = await Promise.all([
      copyEncoding(
        sharp({ create: { width, height, ...skeletonBackground(copy) } }),
        copy,
        'skeleton',
      ).toBuffer(),
      copyEncoding(
        image.composite([{ input: tile, tile: true, blend: 'over' }]),
        copy,
        'watermark',
      ).toBuffer(),
    ]);
    // The previews (decision 0038) as a script would make them: each resized from its file's bytes, the skeleton's
    // with sharp's create at the preview's size.
    const scale = Math.min(1, limits.imagePreviews.previewPixels / Math.max(width, height));
    const previews = await Promise.all([
      makePreview(input, path, 'preview'),
      makePreview(input, path, 'thumb'),
      makePreview(watermark, `copy.${copy}`, 'preview'),
      makePreview(watermark, `copy.${copy}`, 'thumb'),
      sharp({
        create: {
          width: Math.max(1, Math.round(width * scale)),
          height: Math.max(1, Math.round(height * scale)),
          ...skeletonBackground(copy),
        },
      })
        .webp({ lossless: true, effort: 0 })
        .toBuffer(),
    ]);
    await Promise.all([
      writeFile(`${file}.skeleton`, skeleton),
      writeFile(`${file}.watermark`, watermark),
      ...previews.map((bytes, i) => writeFile(`${file}.preview${i}.webp`, bytes)),
    ]);
  });
}

/**
 * The app's own sharp work (makeCopiesWithPreviews) on files, as many images at once as the app: the ratio to it is what
 * the app costs around sharp (storage, database, job), nothing else.
 */
async function sameWorkCopies(folder: string, paths: string[]): Promise<void> {
  await eachLimited(paths, imagesAtOnce, async (path) => {
    const file = join(folder, path);
    const { skeleton, watermark, previews } = await makeCopiesWithPreviews(
      await readFile(file),
      path,
      'Reskin Studio',
    );
    const previewBytes = previews
      ? [
          previews.original.preview,
          previews.original.thumb,
          previews.watermark.preview,
          previews.watermark.thumb,
          previews.skeleton,
        ]
      : [];
    await Promise.all([
      writeFile(`${file}.skeleton`, skeleton),
      writeFile(`${file}.watermark`, watermark),
      ...previewBytes.map((bytes, i) => writeFile(`${file}.preview${i}.webp`, bytes)),
    ]);
  });
}

/** Seconds of wall time and of this process's CPU time (all threads: sharp's work included) that `work` takes. */
interface Timed {
  seconds: number;
  cpuSeconds: number;
}

async function timed(work: () => Promise<void>): Promise<Timed> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

export interface GenerationResult {
  images: number;
  /** Alternating rounds of app and bare sharp; every figure is the median of its rounds. */
  rounds: number;
  seconds: number;
  imagesPerSecond: number;
  /** CPU time of this process (app and sharp) during the generation. */
  cpuSeconds: number;
  bareSeconds: number;
  bareImagesPerSecond: number;
  bareCpuSeconds: number;
  /** Generation's rate over bare sharp's rate on the same images (1 = as fast as a plain script): the median of the rounds' ratios. */
  ratioToBare: number;
  /** The app's own sharp work without the app (sameWorkCopies), medians. */
  sameWorkSeconds: number;
  sameWorkCpuSeconds: number;
  /** Generation's rate over the same work's (1 = the app costs nothing around sharp). */
  ratioToSameWork: number;
}

/**
 * "Gen." of a game with 200 images through the real app (upload, generate, wait for its job, check Ready), against the
 * bare sharp operations on the same images in files (bareCopies) in the same process, after one warm-up of each
 * (sharp's first text rendering loads the fonts). `storageEnv` points the app at another storage (STORAGE=s3 and S3_*).
 */
export async function benchGeneration(
  count = 200,
  storageEnv: Record<string, string> = {},
  rounds = 3,
): Promise<GenerationResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-'));
  const { app, generation } = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-pass-1',
      ...storageEnv,
    }),
  );
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'bench@example.com', password: 'bench-pass-1' },
    });
    const auth = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    const generate = async (images: { path: string; content: Buffer }[]) => {
      const game = (
        await app.inject({
          method: 'POST',
          url: '/api/games',
          headers: auth,
          payload: { name: 'Bench', description: 'x', width: 640, height: 480 },
        })
      ).json<Game>();
      const body = new FormData();
      body.append('fullPath', 'index.html');
      body.append('file', new Blob(['<canvas></canvas>']), 'index.html');
      for (const image of images) {
        body.append('fullPath', image.path);
        body.append('file', new Blob([image.content]), image.path);
      }
      const uploaded = await app.inject({
        method: 'POST',
        url: `/api/game/upload/${game.id}`,
        headers: auth,
        payload: body,
      });
      if (uploaded.statusCode !== 200) throw new Error(`upload failed: ${uploaded.body}`);
      const index = uploaded
        .json<{ file: { path: string; fileId: number } }[]>()
        .find((r) => r.file.path === 'index.html')!;
      await app.inject({
        method: 'PATCH',
        url: `/api/games/${game.id}/files/${index.file.fileId}/index`,
        headers: auth,
      });
      return timed(async () => {
        await app.inject({ method: 'GET', url: `/api/games/${game.id}/generate`, headers: auth });
        await generation.idle();
        const now = (
          await app.inject({ method: 'GET', url: `/api/games/${game.id}`, headers: auth })
        ).json<Game>();
        if (now.gameStatusTypeId !== GameStatus.Ready)
          throw new Error(`generation failed: ${now.statusReason}`);
      });
    };

    const images = await makeImages(count);
    const bareFolder = join(dataDir, 'bare');
    for (const image of images) {
      mkdirSync(dirname(join(bareFolder, image.path)), { recursive: true });
      await writeFile(join(bareFolder, image.path), image.content);
    }
    await bareCopies(
      bareFolder,
      images.slice(0, formats.length).map((image) => image.path),
    );
    await generate(images.slice(0, formats.length));

    // The app and bare sharp alternate over `rounds` rounds (a new game each time); medians of each.
    const runs: { app: Timed; bare: Timed; sameWork: Timed }[] = [];
    for (let round = 0; round < rounds; round++) {
      // Every round is a first generation: no tile rendered before.
      forgetRenderedTiles();
      const generation = await generate(images);
      const bare = await timed(() =>
        bareCopies(
          bareFolder,
          images.map((image) => image.path),
        ),
      );
      forgetRenderedTiles();
      const sameWork = await timed(() =>
        sameWorkCopies(
          bareFolder,
          images.map((image) => image.path),
        ),
      );
      runs.push({ app: generation, bare, sameWork });
    }
    const seconds = median(runs.map((run) => run.app.seconds));
    const bareSeconds = median(runs.map((run) => run.bare.seconds));
    return {
      images: count,
      rounds,
      seconds,
      imagesPerSecond: count / seconds,
      cpuSeconds: median(runs.map((run) => run.app.cpuSeconds)),
      bareSeconds,
      bareImagesPerSecond: count / bareSeconds,
      bareCpuSeconds: median(runs.map((run) => run.bare.cpuSeconds)),
      ratioToBare: median(runs.map((run) => run.bare.seconds / run.app.seconds)),
      sameWorkSeconds: median(runs.map((run) => run.sameWork.seconds)),
      sameWorkCpuSeconds: median(runs.map((run) => run.sameWork.cpuSeconds)),
      ratioToSameWork: median(runs.map((run) => run.sameWork.seconds / run.app.seconds)),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
