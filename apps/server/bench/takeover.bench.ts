import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { GameStatus, type Game } from '@reskin/contract';
import { buildIfStale, freePort, startServer, type ServerProcess } from '../test/support/server-process';

export interface TakeoverResult {
  images: number;
  /** About how many pixels a side. */
  size: number;
  /**
   * The job's own time, Gen. to Ready on a live server: before the kill (on A, both alive) and after it (on B), so
   * that a change in the machine's load during the run counts on both sides.
   */
  liveSeconds: [number, number];
  /** Gen. pressed on A to A's SIGKILL, and the images done by then. */
  killedAfterSeconds: number;
  doneAtKill: number;
  /** From the kill to B's log line of its first slice of the job (B has taken it over). */
  takenAfterKillSeconds: number;
  /** From the kill to the first growth of the progress (B's first image done). */
  movedAfterKillSeconds: number;
  /** From the kill to Ready, read through B. */
  readyAfterKillSeconds: number;
  /** Gen. pressed on A to Ready through B, A killed mid-job. */
  takeoverSeconds: number;
}

/** The goal: a job whose server is killed ends Ready within its own time and this much more. */
export const takeoverGoalSeconds = 15;

interface Server {
  name: string;
  base: string;
  env: Record<string, string>;
  process: ServerProcess;
}

const admin = { email: 'takeover@example.com', password: 'takeover-pass-1' };

async function adminQuery(databaseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Images that take sharp a while each (about `size` px a side, shapes that compress like art), in mixed formats. */
async function makeImages(count: number, size: number): Promise<{ path: string; content: Buffer }[]> {
  const formats = ['png', 'jpeg', 'webp'] as const;
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const width = Math.round(size * 0.9) + ((i * 37) % Math.round(size * 0.3));
      const height = Math.round(size * 0.7) + ((i * 53) % Math.round(size * 0.3));
      const format = formats[i % formats.length]!;
      const art = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
          `<rect width="100%" height="100%" fill="hsl(${(i * 37) % 360},60%,50%)"/>` +
          `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="hsl(${(i * 91) % 360},70%,60%)"/></svg>`,
      );
      const content = await sharp(art).toFormat(format).toBuffer();
      return { path: `img/${i}.${format === 'jpeg' ? 'jpg' : format}`, content };
    }),
  );
}

async function api<T>(
  server: Server,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const isForm = body instanceof FormData;
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: isForm ? body : JSON.stringify(body) } : {}),
  });
  if (!response.ok)
    throw new Error(`${server.name} ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function uploadGame(
  server: Server,
  token: string,
  name: string,
  images: { path: string; content: Buffer }[],
): Promise<Game> {
  const game = await api<Game>(server, 'POST', '/games', token, {
    name,
    description: 'The takeover bench',
    width: 480,
    height: 640,
  });
  const form = new FormData();
  for (const file of [{ path: 'index.html', content: Buffer.from('<p>') }, ...images]) {
    form.append('fullPath', file.path);
    form.append('file', new Blob([file.content]), file.path.split('/').pop());
  }
  await api(server, 'POST', `/game/upload/${game.id}`, token, form);
  return game;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the game through `server` every 100 ms until `done` says so; fails on Failed. */
async function waitFor(
  server: Server,
  token: string,
  gameId: number,
  done: (game: Game) => boolean,
  limitMs = 600_000,
): Promise<Game> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const game = await api<Game>(server, 'GET', `/games/${gameId}`, token);
    if (game.gameStatusTypeId === GameStatus.Failed)
      throw new Error(`the game failed: ${game.statusReason ?? ''}`);
    if (done(game)) return game;
    if (Date.now() > deadline) throw new Error(`gave up waiting on game ${gameId}`);
    await sleep(100);
  }
}

/**
 * A killed server's generation job on PostgreSQL (decision 0016): two production servers (`node scripts/start.mjs`,
 * fresh build) on one new PostgreSQL database and one DATA_DIR; a game of `images` images is generated on A with
 * both alive (the job's own time), then the same images in a second game, whose Gen. is pressed on A and A killed
 * with SIGKILL once a third of the images are done while it holds the job, the time to Ready read through B; then
 * the job's own time again, on B.
 */
export async function benchTakeover(options: {
  databaseUrl: string;
  images: number;
  size: number;
}): Promise<TakeoverResult> {
  buildIfStale();
  const database = `bench_takeover_${randomBytes(5).toString('hex')}`;
  await adminQuery(options.databaseUrl, `create database "${database}"`);
  const url = new URL(options.databaseUrl);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-takeover-'));
  const shared = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    MALLOC_ARENA_MAX: '2',
  };
  const servers: Server[] = [];
  try {
    for (const name of ['A', 'B']) {
      const port = await freePort();
      const env = { ...shared, PORT: String(port), PLAY_PORT: String(await freePort()) };
      servers.push({ name, base: `http://127.0.0.1:${port}`, env, process: startServer(env) });
    }
    const [a, b] = servers as [Server, Server];
    // Both start at once on the new database, as a deployment of two servers does.
    await Promise.all(servers.map((s) => s.process.waitFor(/Reskin Studio on http:\/\/localhost/)));
    const { token } = await api<{ token: string }>(a, 'POST', '/user/login', undefined, admin);
    const images = await makeImages(options.images, options.size);

    const liveJob = async (server: Server, name: string): Promise<number> => {
      const game = await uploadGame(server, token, name, images);
      const started = performance.now();
      await api(server, 'GET', `/games/${game.id}/generate`, token);
      await waitFor(server, token, game.id, (now) => now.gameStatusTypeId === GameStatus.Ready);
      return (performance.now() - started) / 1000;
    };
    const liveBefore = await liveJob(a, 'Takeover live before');

    // The same job, A killed mid-job while it holds it.
    const killed = await uploadGame(a, token, 'Takeover killed', images);
    const sliceStarted = new RegExp(`"gameId":${killed.id}[^\\n]*game generation slice started`, 'g');
    const slicesOn = (server: Server) => server.process.output().match(sliceStarted)?.length ?? 0;
    const started = performance.now();
    await api(a, 'GET', `/games/${killed.id}/generate`, token);
    let seenOnB = 0;
    const atKill = await waitFor(b, token, killed.id, (game) => {
      // The slice running now is A's when B has started none since the last look.
      const onB = slicesOn(b);
      const aHolds = onB === seenOnB && slicesOn(a) > 0;
      seenOnB = onB;
      return aHolds && (game.generationDone ?? 0) >= options.images / 3;
    });
    const bOutput = b.process.output().length;
    a.process.killProcessGroup();
    await a.process.exited;
    const killedAt = performance.now();
    const takenOver = b.process
      .waitFor(new RegExp(sliceStarted.source), bOutput)
      .then(() => (performance.now() - killedAt) / 1000);
    const doneAtKill = atKill.generationDone ?? 0;
    // The progress recorded when the kill came: its first growth is B's work.
    const recorded = (await api<Game>(b, 'GET', `/games/${killed.id}`, token)).generationDone ?? 0;
    await waitFor(
      b,
      token,
      killed.id,
      (game) => (game.generationDone ?? 0) > recorded || game.gameStatusTypeId === GameStatus.Ready,
    );
    const movedAfterKillSeconds = (performance.now() - killedAt) / 1000;
    await waitFor(b, token, killed.id, (game) => game.gameStatusTypeId === GameStatus.Ready);
    const now = performance.now();
    const liveAfter = await liveJob(b, 'Takeover live after');
    return {
      images: options.images,
      size: options.size,
      liveSeconds: [liveBefore, liveAfter],
      killedAfterSeconds: (killedAt - started) / 1000,
      doneAtKill,
      takenAfterKillSeconds: await takenOver,
      movedAfterKillSeconds,
      readyAfterKillSeconds: (now - killedAt) / 1000,
      takeoverSeconds: (now - started) / 1000,
    };
  } finally {
    for (const server of servers) {
      server.process.killProcessGroup();
      await server.process.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(options.databaseUrl, `drop database if exists "${database}" with (force)`);
  }
}
