// Shared by the browser benchmarks (workbench, workbenchOpen, myGames): deterministic art, a data folder prepared
// through the real app, the production server started on it, and the workbench benches' big game. Chromium and the
// page measures: browser-measures.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  GameStatus,
  limits,
  type Game,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { nowIso } from '../src/db/database';
import { hashPassword } from '../src/modules/users/users.service';
import { artistRows, freePort } from './api.bench';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(serverDir, '../..');

/** Builds the web app and the server bundle when stale (the benches measure the production build). */
export function buildProduction(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('node scripts/build.mjs failed');
}

/** A small deterministic random generator (mulberry32): the same seed draws the same art on every machine. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A picture drawn like game art: smooth colour fields (a coarse random grid scaled up with a cubic kernel), banded
 * for PNG and grainy for JPEG, so each compresses as art does (neither to nothing nor not at all).
 */
export async function drawArt(
  seed: number,
  width: number,
  height: number,
  format: 'png' | 'jpeg',
): Promise<Buffer> {
  const next = random(seed);
  const cell = 8 + Math.floor(next() * 24);
  const gridWidth = Math.max(2, Math.ceil(width / cell));
  const gridHeight = Math.max(2, Math.ceil(height / cell));
  const grid = Buffer.alloc(gridWidth * gridHeight * 3);
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(next() * 256);
  const fields = await sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } })
    .resize(width, height, { kernel: 'cubic', fit: 'fill' })
    .raw()
    .toBuffer();
  if (format === 'png') {
    // Drawn art has bands of flat colour: 32 levels a channel (about 1.3 bytes a pixel as PNG).
    for (let i = 0; i < fields.length; i++) fields[i] = fields[i]! & 0xf8;
    return sharp(fields, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 6 })
      .toBuffer();
  }
  // Photos and painted backgrounds have grain (about 0.2 bytes a pixel as JPEG).
  const grain = Buffer.alloc(width * height);
  for (let i = 0; i < grain.length; i++) grain[i] = 120 + Math.floor(next() * 16);
  return sharp(fields, { raw: { width, height, channels: 3 } })
    .composite([{ input: grain, raw: { width, height, channels: 1 }, blend: 'overlay' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Runs `work` over `items`, `concurrency` at a time. */
export async function eachLimited<T>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/**
 * Drawn images, kept in a folder of the system's temp directory named after what draws them, so a second run of
 * the bench reuses them (drawing 300 MB of art takes a while on 2 cores).
 */
export async function cachedArt(
  name: string,
  specs: { path: string; seed: number; width: number; height: number; format: 'png' | 'jpeg' }[],
): Promise<{ path: string; content: Buffer }[]> {
  const folder = join(tmpdir(), `reskin-bench-art-${name}`);
  mkdirSync(folder, { recursive: true });
  const images: { path: string; content: Buffer }[] = new Array(specs.length);
  await eachLimited(specs, 2, async (spec, index) => {
    const file = join(folder, `${spec.seed}-${spec.width}x${spec.height}.${spec.format}`);
    let content: Buffer;
    if (existsSync(file)) content = await readFile(file);
    else {
      content = await drawArt(spec.seed, spec.width, spec.height, spec.format);
      await writeFile(file, content);
    }
    images[index] = { path: spec.path, content };
  });
  return images;
}

export const benchAdmin = { email: 'bench@example.com', password: 'bench-pass-1' };
export const artistPassword = 'bench-pass-1';
const jwtSecret = 'reskin-browser-bench-secret-0001';

type App = Awaited<ReturnType<typeof buildApp>>;

/** The real app in this process, for preparing a data folder through its own routes (as an admin would). */
export class Preparation {
  private adminToken = '';
  constructor(private readonly built: App) {}

  get db() {
    return this.built.database.db;
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    url: string,
    options: { token?: string; payload?: unknown } = {},
  ): Promise<T> {
    const response = await this.built.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${options.token ?? this.adminToken}` },
      payload: options.payload as never,
    });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 500)}`);
    return response.body ? response.json<T>() : (undefined as T);
  }

  /** GET of an image's preview URL (`/api/previews/<grant>/<name>`, decision 0038): made and stored if missing. */
  async fetchPreview(url: string): Promise<void> {
    const response = await this.built.app.inject({ method: 'GET', url });
    if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode}`);
  }

  async login(email: string, password: string): Promise<string> {
    const response = await this.built.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email, password },
    });
    if (response.statusCode !== 200) throw new Error(`login ${email}: ${response.body}`);
    return response.json<{ token: string }>().token;
  }

  async loginAdmin(): Promise<void> {
    this.adminToken = await this.login(benchAdmin.email, benchAdmin.password);
  }

  /** The bench's admin (a reviewer: verdicts and notes). */
  async adminId(): Promise<number> {
    const admin = await this.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', benchAdmin.email)
      .executeTakeFirstOrThrow();
    return admin.id;
  }

  /** Artists (role User, activated) straight into the table, as bench/api.bench.ts seeds them. */
  async createArtists(count: number, prefix: string): Promise<{ id: number; email: string }[]> {
    const passwordHash = await hashPassword(artistPassword);
    const now = nowIso();
    const rows = artistRows(count, prefix, passwordHash, now);
    await this.db.insertInto('users').values(rows).execute();
    return this.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'like', `${prefix}%`)
      .orderBy('id')
      .execute();
  }

  /** A game of `files` (uploaded in batches the route accepts), its index and splash marked; not generated yet. */
  async uploadedGame(
    name: string,
    files: { path: string; content: Buffer }[],
    index: string,
    splash?: string,
  ): Promise<Game> {
    const game = await this.request<Game>('POST', '/games', {
      payload: { name, description: `${name}, made by the bench`, width: 640, height: 480 },
    });
    const uploaded: GameFile[] = [];
    for (let start = 0; start < files.length; start += limits.adminUploadFiles) {
      const body = new FormData();
      for (const file of files.slice(start, start + limits.adminUploadFiles)) {
        body.append('fullPath', file.path);
        body.append('file', new Blob([new Uint8Array(file.content)]), file.path);
      }
      const results = await this.request<{ file: GameFile }[]>('POST', `/game/upload/${game.id}`, {
        payload: body,
      });
      uploaded.push(...results.map((result) => result.file));
    }
    const fileId = (path: string) => {
      const file = uploaded.find((f) => f.path === path);
      if (!file) throw new Error(`${name} has no ${path}`);
      return file.fileId;
    };
    await this.request('PATCH', `/games/${game.id}/files/${fileId(index)}/index`);
    if (splash) await this.request('PATCH', `/games/${game.id}/files/${fileId(splash)}/splash`);
    return game;
  }

  /** "Gen." of every game, then waits for the jobs; each must be Ready. */
  async generate(gameIds: number[]): Promise<void> {
    for (const id of gameIds) await this.request('GET', `/games/${id}/generate`);
    await this.built.generation.idle();
    for (const id of gameIds) {
      const game = await this.request<Game>('GET', `/games/${id}`);
      if (game.gameStatusTypeId !== GameStatus.Ready)
        throw new Error(`${game.name} is not Ready: ${game.statusReason}`);
    }
  }

  async gameNamed(name: string): Promise<Game> {
    const [game] = await this.request<Game[]>('POST', '/games/filter', { payload: { where: { name } } });
    if (!game) throw new Error(`no game ${name}`);
    return game;
  }

  async assign(userId: number, gameId: number): Promise<UserGame> {
    return this.request<UserGame>('POST', '/user-games', {
      payload: { userId, gameId, userGameTypeId: 1, jobPrice: 100 },
    });
  }

  async createVersion(artistToken: string, userGame: UserGame, name: string): Promise<GameVersion> {
    return this.request<GameVersion>('POST', '/game-versions', {
      token: artistToken,
      payload: { name, description: 'A new look', gameId: userGame.gameId, userGamesId: userGame.id },
    });
  }
}

const baseEnv = (dataDir: string, seedDemo: boolean) => ({
  DATA_DIR: dataDir,
  SEED_DEMO: seedDemo ? 'true' : 'false',
  LOG_LEVEL: 'warn',
  JWT_SECRET: jwtSecret,
  ADMIN_EMAIL: benchAdmin.email,
  ADMIN_PASSWORD: benchAdmin.password,
  AUTH_RATE_LIMIT_MAX: '100000',
});

export interface RunningServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Prepares a fresh data folder with the real app in this process (SEED_DEMO seeds the sample game, Star Catcher),
 * closes it, then starts the production server (dist/server.js, its own process, as `npm start` runs it) on that
 * folder, so the browser measures what a deployment serves.
 */
export async function preparedServer<T>(
  seedDemo: boolean,
  prepare: (preparation: Preparation) => Promise<T>,
): Promise<{ server: RunningServer; prepared: T }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-browser-'));
  let prepared: T;
  const built = await buildApp(loadConfig(baseEnv(dataDir, seedDemo)));
  try {
    const preparation = new Preparation(built);
    await preparation.loginAdmin();
    prepared = await prepare(preparation);
  } finally {
    await built.app.close();
  }
  const port = await freePort();
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF;
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, 'dist/server.js'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PLAY_PORT: String(await freePort()),
      ...baseEnv(dataDir, false),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${origin}/api/config`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (child.exitCode !== null) throw new Error('the server exited while starting');
    if (i > 600) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    prepared: prepared!,
    server: {
      origin,
      dataDir,
      stop: async () => {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await once(child, 'exit');
        }
        rmSync(dataDir, { recursive: true, force: true });
      },
    },
  };
}

/** A token for the production server (its own login route). */
export async function loginOver(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The workbench benches' big game: 1,500 images from 34 to 2,048 px a side (most small: sprites and icons; a few
 * full-screen backgrounds), two in three PNG, drawn deterministically: about 320 MB, as the issue's studio game
 * (316 MB). The same drawing as workbench.bench.ts's, so both use the same cached art.
 */
export function bigGameSpecs(count: number) {
  const next = random(29);
  return Array.from({ length: count }, (_, i) => {
    const side = 34 * (2048 / 34) ** (next() ** 2.1);
    const aspect = 0.5 + next() * 1.5;
    const width = Math.min(2048, Math.max(34, Math.round(side)));
    const height = Math.min(2048, Math.max(34, Math.round(side / aspect)));
    const format = i % 3 === 0 ? ('jpeg' as const) : ('png' as const);
    return {
      path: `big-game/assets/img/${String(Math.floor(i / 100)).padStart(2, '0')}/art-${i}.${format === 'jpeg' ? 'jpg' : 'png'}`,
      seed: i + 1,
      width,
      height,
      format,
    };
  });
}

/** The artist who opens the workbench benches' versions. */
export const workbenchArtist = { email: 'wbartist0@example.com', password: artistPassword };

/** The artist's workbench of one version, on its Files tab. */
export const workbenchPath = (version: GameVersion) =>
  `/my-games/versions/workbench?versionId=${version.id}&gameId=${version.gameId}&userGameId=${version.userGamesId}&tab=files`;

/**
 * The workbench benches' data on the production server: the big game (bigGameSpecs, uploaded and generated) and the
 * sample game (Star Catcher), each assigned to workbenchArtist with a version of it.
 */
export async function workbenchGames(count: number): Promise<{
  server: RunningServer;
  bigVersion: GameVersion;
  sampleVersion: GameVersion;
  megabytes: number;
}> {
  const art = await cachedArt('workbench-v1', bigGameSpecs(count));
  const megabytes = art.reduce((sum, image) => sum + image.content.length, 0) / 1024 / 1024;
  const { server, prepared } = await preparedServer(true, async (preparation) => {
    const files = [
      {
        path: 'big-game/index.html',
        content: Buffer.from('<!doctype html><title>Big game</title><canvas></canvas>'),
      },
      ...art,
    ];
    const big = await preparation.uploadedGame('Big game', files, 'big-game/index.html', art[0]!.path);
    await preparation.generate([big.id]);
    const sample = await preparation.gameNamed('Star Catcher');
    const [created] = await preparation.createArtists(1, 'wbartist');
    if (!created) throw new Error('the artist was not created');
    const token = await preparation.login(workbenchArtist.email, workbenchArtist.password);
    const version = async (gameId: number, name: string) =>
      preparation.createVersion(token, await preparation.assign(created.id, gameId), name);
    return {
      bigVersion: await version(big.id, 'Big look'),
      sampleVersion: await version(sample.id, 'Sample look'),
    };
  });
  return { server, ...prepared, megabytes };
}
