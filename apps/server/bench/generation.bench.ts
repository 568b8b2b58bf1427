import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { GameStatus, type Game } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { makeSkeleton, makeWatermark } from '../src/lib/variants';

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
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

export interface GenerationResult {
  images: number;
  seconds: number;
  imagesPerSecond: number;
  bareSeconds: number;
  bareImagesPerSecond: number;
  /** Generation's rate over bare sharp's rate on the same images (1 = no overhead). */
  ratioToBare: number;
}

/**
 * "Gen." of a game with 200 images through the real app (upload, generate, poll until Ready), against the
 * bare sharp operations (skeleton + watermark of each image, in memory, one per core) in the same process.
 * `storageEnv` points the app at another storage (STORAGE=s3 and S3_*).
 */
export async function benchGeneration(count = 200, storageEnv: Record<string, string> = {}): Promise<GenerationResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-'));
  const { app } = await buildApp(
    loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-pass-1', ...storageEnv }),
  );
  try {
    const login = await app.inject({ method: 'POST', url: '/api/user/login', payload: { email: 'bench@example.com', password: 'bench-pass-1' } });
    const auth = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    const game = (await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { name: 'Bench', description: 'x', width: 640, height: 480 } })).json<Game>();

    const images = await makeImages(count);
    const body = new FormData();
    body.append('fullPath', 'index.html');
    body.append('file', new Blob(['<canvas></canvas>']), 'index.html');
    for (const image of images) {
      body.append('fullPath', image.path);
      body.append('file', new Blob([image.content]), image.path);
    }
    const uploaded = await app.inject({ method: 'POST', url: `/api/game/upload/${game.id}`, headers: auth, payload: body });
    if (uploaded.statusCode !== 200) throw new Error(`upload failed: ${uploaded.body}`);
    const index = uploaded.json<{ file: { path: string; fileId: number } }[]>().find((r) => r.file.path === 'index.html')!;
    await app.inject({ method: 'PATCH', url: `/api/games/${game.id}/files/${index.file.fileId}/index`, headers: auth });

    const started = performance.now();
    await app.inject({ method: 'GET', url: `/api/games/${game.id}/generate`, headers: auth });
    for (;;) {
      const now = (await app.inject({ method: 'GET', url: `/api/games/${game.id}`, headers: auth })).json<Game>();
      if (now.gameStatusTypeId === GameStatus.Ready) break;
      if (now.gameStatusTypeId === GameStatus.Failed) throw new Error(`generation failed: ${now.statusReason}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;

    const bareStarted = performance.now();
    await eachLimited(images, availableParallelism(), async (image) => {
      await Promise.all([makeSkeleton(image.content, image.path), makeWatermark(image.content, image.path, 'Reskin Studio')]);
    });
    const bareSeconds = (performance.now() - bareStarted) / 1000;

    return {
      images: count,
      seconds,
      imagesPerSecond: count / seconds,
      bareSeconds,
      bareImagesPerSecond: count / bareSeconds,
      ratioToBare: count / seconds / (count / bareSeconds),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
