import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import yazl from 'yazl';
import type { Game } from '@reskin/contract';
import { median } from './api.bench';
import { startProductionServer, type ProductionServer } from './production-server';
import { noisyImage } from './version-zip.bench';

/** A game as the bench zips it: how many files, and about how many megabytes they take together. */
export interface ZipGame {
  label: string;
  files: number;
  megabytes: number;
  /** A build's mix (sprites, backgrounds, scripts, sounds), or large opaque files only (videos, music). */
  mix: 'build' | 'large files';
}

/** The sizes an audit measured (decision 0061): a typical build, a large one, and a game of large files. */
export const zipGames: ZipGame[] = [
  { label: 'typical build', files: 100, megabytes: 17, mix: 'build' },
  { label: 'large build', files: 1000, megabytes: 195, mix: 'build' },
  { label: 'large files', files: 26, megabytes: 650, mix: 'large files' },
];

export interface ZipUploadRow extends ZipGame {
  zipMegabytes: number;
  /** Medians over the rounds. */
  appSeconds: number;
  /** `cp` of the zip into a fresh folder, then `unzip -q` there: the bare work of taking the zip in. */
  bareSeconds: number;
  /** app / bare (target: within 4x). */
  ratio: number;
  rounds: number;
}

/** Bytes of pseudo-random content (a sound or a video packs no smaller), made quickly from one random block. */
function opaque(bytes: number, seed: number): Buffer {
  const block = Buffer.alloc(64 * 1024);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < block.length; i += 4) {
    x = (x * 1103515245 + 12345) >>> 0;
    block.writeUInt32LE(x, i);
  }
  const out = Buffer.alloc(bytes);
  for (let at = 0; at < bytes; at += block.length) block.copy(out, at, 0, Math.min(block.length, bytes - at));
  out.writeUInt32LE(seed, 0);
  return out;
}

/**
 * A game of `game.files` files of about `game.megabytes` in all, zipped as an export tool does (images and sounds
 * stored, text deflated). A build: per 10 files 6 PNG sprites of 64 to 512 px a side with grain, 1 JPEG background
 * of 1024x768, 2 scripts or JSON levels, 1 sound, whose size makes up the total. Large files: opaque files of
 * equal size (videos, music). Answers the zip's size in bytes.
 */
export async function makeGameZip(path: string, game: ZipGame): Promise<number> {
  const zip = new yazl.ZipFile();
  const total = game.megabytes * 1024 * 1024;
  zip.addBuffer(
    Buffer.from('<!doctype html><title>Zip bench</title><script src="js/game.js"></script>'),
    'game/index.html',
  );
  if (game.mix === 'large files') {
    const each = Math.floor(total / (game.files - 1));
    for (let i = 1; i < game.files; i++)
      zip.addBuffer(opaque(each, i), `game/media/clip-${i}.mp4`, { compress: false });
  } else {
    const sides: [number, number][] = [
      [64, 64],
      [96, 96],
      [128, 128],
      [128, 128],
      [200, 200],
      [256, 256],
      [384, 256],
      [512, 512],
    ];
    const sprites = await Promise.all(sides.map(([w, h], i) => noisyImage(w, h, i)));
    const background = await sharp(await noisyImage(1024, 768, 9))
      .jpeg({ quality: 85 })
      .toBuffer();
    const text = (i: number) =>
      Buffer.from(
        `export const level${i} = ${JSON.stringify({ tiles: Array.from({ length: 2000 }, (_, t) => (t * i) % 7) })};\n`,
      );
    const kinds = Array.from({ length: game.files }, (_, i) =>
      i === 0 ? 'index' : ['png', 'png', 'js', 'png', 'jpg', 'png', 'sound', 'png', 'js', 'png'][i % 10]!,
    );
    let fixed = 0;
    for (const [i, kind] of kinds.entries()) {
      if (kind === 'png') fixed += sprites[i % sprites.length]!.length;
      else if (kind === 'jpg') fixed += background.length;
    }
    const sounds = kinds.filter((kind) => kind === 'sound').length;
    const soundBytes = Math.max(16 * 1024, Math.floor((total - fixed) / Math.max(1, sounds)));
    for (const [i, kind] of kinds.entries()) {
      if (kind === 'png')
        zip.addBuffer(sprites[i % sprites.length]!, `game/img/sprite-${i}.png`, { compress: false });
      else if (kind === 'jpg') zip.addBuffer(background, `game/img/background-${i}.jpg`, { compress: false });
      else if (kind === 'js') zip.addBuffer(text(i), `game/js/level-${i}.js`);
      else if (kind === 'sound')
        zip.addBuffer(opaque(soundBytes, i), `game/sounds/sound-${i}.ogg`, { compress: false });
    }
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return statSync(path).size;
}

/** One POST /game/upload-zip/{gameId} of the zip at `zipPath` into a new game; answers its seconds. */
async function uploadOnce(server: ProductionServer, zipPath: string, name: string): Promise<number> {
  const created = await fetch(`${server.base}/games`, {
    method: 'POST',
    headers: { ...server.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, description: 'x', width: 640, height: 480 }),
  });
  const game = (await created.json()) as Game;
  const body = new FormData();
  // From the file, not from memory: a 650 MB zip is streamed as a browser sends it.
  body.append('file', await openAsBlob(zipPath), 'game.zip');
  const started = performance.now();
  const response = await fetch(`${server.base}/game/upload-zip/${game.id}`, {
    method: 'POST',
    headers: server.auth,
    body,
  });
  if (!response.ok) throw new Error(`zip upload failed: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  return (performance.now() - started) / 1000;
}

/** `cp` of the zip into a fresh folder and `unzip -q` there; answers its seconds. */
function cpUnzip(zipPath: string, target: string): number {
  const started = performance.now();
  const cp = spawnSync('sh', [
    '-c',
    `mkdir -p "${target}" && cp "${zipPath}" "${target}/game.zip" && cd "${target}" && unzip -q game.zip`,
  ]);
  if (cp.status !== 0) throw new Error(`cp + unzip failed: ${cp.stderr.toString()}`);
  const seconds = (performance.now() - started) / 1000;
  rmSync(target, { recursive: true, force: true });
  return seconds;
}

/**
 * POST /game/upload-zip/{gameId} of each game of `games` to the production server (its own process, SQLite, local
 * disk), against `cp` + `unzip -q` of the same zip into a fresh folder, in alternating rounds (a new game each
 * round, so every round stores every file; one upload first, unmeasured, warms the server). Every size in one run.
 */
export async function benchZipUpload(
  games: ZipGame[] = zipGames,
  rounds: (game: ZipGame) => number = (game) => (game.megabytes > 300 ? 3 : 5),
): Promise<{ rows: ZipUploadRow[]; serverStartupMs: number }> {
  const work = mkdtempSync(join(tmpdir(), 'reskin-bench-zip-'));
  const server = await startProductionServer(join(work, 'data'));
  try {
    const rows: ZipUploadRow[] = [];
    for (const [g, game] of games.entries()) {
      const zipPath = join(work, `game-${g}.zip`);
      const zipBytes = await makeGameZip(zipPath, game);
      await uploadOnce(server, zipPath, `Warm-up ${g}`);
      const app: number[] = [];
      const bare: number[] = [];
      for (let round = 0; round < rounds(game); round++) {
        const target = join(work, `bare-${g}-${round}`);
        if (round % 2 === 0) {
          app.push(await uploadOnce(server, zipPath, `Zip bench ${g}.${round}`));
          bare.push(cpUnzip(zipPath, target));
        } else {
          bare.push(cpUnzip(zipPath, target));
          app.push(await uploadOnce(server, zipPath, `Zip bench ${g}.${round}`));
        }
      }
      rmSync(zipPath, { force: true });
      rows.push({
        ...game,
        zipMegabytes: zipBytes / 1024 / 1024,
        appSeconds: median(app),
        bareSeconds: median(bare),
        ratio: median(app) / median(bare),
        rounds: rounds(game),
      });
    }
    return { rows, serverStartupMs: server.startupMs };
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
