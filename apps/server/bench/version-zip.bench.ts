import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { zipStoredFiles } from '../src/modules/versions/version-zip';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
import { median } from './api.bench';

const run = promisify(execFile);

/** A sprite as an artist exports it: shapes on a gradient with grain (noise), so it encodes as real art does. */
export async function noisyImage(width: number, height: number, seed: number): Promise<Buffer> {
  const shapes = Array.from(
    { length: 6 },
    (_, i) =>
      `<circle cx="${((i + seed) * 97) % width}" cy="${((i + seed) * 61) % height}" r="${4 + ((i * 7) % Math.max(5, Math.floor(width / 5)))}" fill="hsl(${((i + seed) * 37) % 360},70%,55%)"/>`,
  ).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g"><stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#9ab"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'soft-light' }])
    .png()
    .toBuffer();
}

export interface VersionZipBenchResult {
  images: number;
  megabytes: number;
  rounds: number;
  /** zipStoredFiles (the version zip) to a file on disk. */
  seconds: number;
  cpuSeconds: number;
  zipMegabytes: number;
  /** `zip -q -r` of the same files (its default: deflate for every file). */
  cliSeconds: number;
  cliMegabytes: number;
  /** The zip CLI's time / the version zip's (target >= 1.0: the version zip is at least as fast). */
  ratio: number;
}

/**
 * A version zip of 1,500 PNG images (64 to 256 px a side, with grain) from local disk storage, against the zip
 * CLI (`zip -q -r`) on the same files, in alternating rounds; medians.
 */
export async function benchVersionZip(rounds = 5, images = 1500): Promise<VersionZipBenchResult> {
  const root = await mkdtemp(join(tmpdir(), 'reskin-version-zip-'));
  try {
    const filesRoot = join(root, 'files');
    const folder = join(filesRoot, 'game', 'img');
    await mkdir(folder, { recursive: true });
    const files: { path: string; storageKey: string }[] = [];
    let bytes = 0;
    for (let i = 0; i < images; i += 1) {
      const image = await noisyImage(64 + ((i * 53) % 193), 64 + ((i * 89) % 193), i);
      bytes += image.length;
      await writeFile(join(folder, `sprite-${i}.png`), image);
      files.push({ path: `img/sprite-${i}.png`, storageKey: `game/img/sprite-${i}.png` });
    }
    const storage = new LocalDiskStorage(filesRoot);
    const ours = join(root, 'version.zip');
    const theirs = join(root, 'cli.zip');
    const app = async () => {
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      await pipeline(zipStoredFiles(storage, files), createWriteStream(ours));
      const used = process.cpuUsage(cpu);
      return {
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        cpuSeconds: (used.user + used.system) / 1e6,
      };
    };
    const cli = async () => {
      await rm(theirs, { force: true });
      const started = process.hrtime.bigint();
      await run('zip', ['-q', '-r', theirs, 'img'], { cwd: join(filesRoot, 'game') });
      return { seconds: Number(process.hrtime.bigint() - started) / 1e9 };
    };
    // One warm-up of each (the page cache then holds the files for both).
    await app();
    await cli();
    const appRuns: { seconds: number; cpuSeconds: number }[] = [];
    const cliRuns: { seconds: number }[] = [];
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) {
        appRuns.push(await app());
        cliRuns.push(await cli());
      } else {
        cliRuns.push(await cli());
        appRuns.push(await app());
      }
    }
    const seconds = median(appRuns.map((r) => r.seconds));
    const cliSeconds = median(cliRuns.map((r) => r.seconds));
    return {
      images,
      megabytes: bytes / 1e6,
      rounds,
      seconds,
      cpuSeconds: median(appRuns.map((r) => r.cpuSeconds)),
      zipMegabytes: (await stat(ours)).size / 1e6,
      cliSeconds,
      cliMegabytes: (await stat(theirs)).size / 1e6,
      ratio: cliSeconds / seconds,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
