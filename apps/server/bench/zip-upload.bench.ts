import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import yazl from 'yazl';
import { limits, type Game } from '@reskin/contract';
import { freePort } from './api.bench';

export interface ZipUploadResult {
  files: number;
  zipMegabytes: number;
  /** Medians over the rounds. */
  appSeconds: number;
  /** `cp` of the zip into a fresh folder, then `unzip -q` there: the bare work of taking the zip in. */
  bareSeconds: number;
  /** app / bare (target: within 4x). */
  ratio: number;
  rounds: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A game of `count` files as a big game's export is (1,552 files: PNG and JPEG images of many sizes, scripts,
 * JSON, sounds as opaque blobs), zipped as an export tool does (images stored, text deflated).
 */
async function makeGameZip(path: string, count: number): Promise<number> {
  const zip = new yazl.ZipFile();
  const images = await Promise.all(
    [34, 64, 128, 256, 512, 1024].map(async (side, i) => ({
      png: await sharp({
        create: {
          width: side,
          height: side,
          channels: 4,
          background: { r: 40 * i, g: 90, b: 200, alpha: 1 },
        },
      })
        .composite([
          {
            input: await sharp(randomBytes(side * side * 3), {
              raw: { width: side, height: side, channels: 3 },
            })
              .png()
              .toBuffer(),
            blend: 'over',
          },
        ])
        .png()
        .toBuffer(),
      jpg: await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    })),
  );
  zip.addBuffer(
    Buffer.from('<!doctype html><title>Zip bench</title><script src="js/game.js"></script>'),
    'game/index.html',
  );
  for (let i = 1; i < count; i++) {
    const image = images[i % images.length]!;
    if (i % 31 === 0) zip.addBuffer(randomBytes(200 * 1024), `game/sounds/s${i}.ogg`, { compress: false });
    else if (i % 11 === 0)
      zip.addBuffer(
        Buffer.from(
          `export const level${i} = ${JSON.stringify({ tiles: Array.from({ length: 400 }, (_, t) => t % 7) })};\n`,
        ),
        `game/js/level-${i}.js`,
      );
    else if (i % 3 === 0) zip.addBuffer(image.jpg, `game/img/${i}.jpg`, { compress: false });
    else zip.addBuffer(image.png, `game/img/${i}.png`, { compress: false });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return statSync(path).size;
}

async function startServer(dataDir: string) {
  const port = await freePort();
  const serverDir = new URL('..', import.meta.url).pathname;
  const server = spawn(process.execPath, ['dist/server.js'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PLAY_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-pass-1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/config`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (i > 300) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { server, base };
}

/**
 * POST /game/upload-zip/{gameId} of a `count`-file zip (by default the route's most, `limits.adminUploadFiles`: a
 * bigger game goes in through the UI in several zips or batches) to the production server (its own process, local disk),
 * against `cp` + `unzip -q` of the same zip into a fresh folder, alternating over `rounds` rounds (a new game each
 * round, so every round stores every file).
 */
export async function benchZipUpload(
  count: number = limits.adminUploadFiles,
  rounds = 3,
): Promise<ZipUploadResult> {
  const work = mkdtempSync(join(tmpdir(), 'reskin-bench-zip-'));
  const zipPath = join(work, 'game.zip');
  const zipBytes = await makeGameZip(zipPath, count);
  const dataDir = join(work, 'data');
  const { server, base } = await startServer(dataDir);
  try {
    const login = await fetch(`${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass-1' }),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const zipContent = await readFile(zipPath);
    const appRounds: number[] = [];
    const bareRounds: number[] = [];
    let files = 0;
    for (let round = 0; round < rounds; round++) {
      const created = await fetch(`${base}/games`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Zip bench ${round}`, description: 'x', width: 640, height: 480 }),
      });
      const game = (await created.json()) as Game;
      const body = new FormData();
      body.append('file', new Blob([zipContent]), 'game.zip');
      let started = performance.now();
      const response = await fetch(`${base}/game/upload-zip/${game.id}`, {
        method: 'POST',
        headers: auth,
        body,
      });
      if (!response.ok) throw new Error(`zip upload failed: ${response.status} ${await response.text()}`);
      files = ((await response.json()) as unknown[]).length;
      appRounds.push((performance.now() - started) / 1000);

      const target = join(work, `bare-${round}`);
      started = performance.now();
      const cp = spawnSync('sh', [
        '-c',
        `mkdir -p "${target}" && cp "${zipPath}" "${target}/game.zip" && cd "${target}" && unzip -q game.zip`,
      ]);
      if (cp.status !== 0) throw new Error(`cp + unzip failed: ${cp.stderr.toString()}`);
      bareRounds.push((performance.now() - started) / 1000);
      rmSync(target, { recursive: true, force: true });
    }
    const appSeconds = median(appRounds);
    const bareSeconds = median(bareRounds);
    return {
      files,
      zipMegabytes: zipBytes / 1024 / 1024,
      appSeconds,
      bareSeconds,
      ratio: appSeconds / bareSeconds,
      rounds,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(work, { recursive: true, force: true });
  }
}
