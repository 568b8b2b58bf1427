import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  errorCodes,
  limits,
  type Game,
  type GamePath,
  type GameFile,
  type GameVersion,
  type User,
  type UserGame,
} from '@reskin/contract';
import { filesForm, signupBody, testDb } from './helpers';
import { startS3Server, type S3Server } from './support/s3-server';
import { solidPng } from './support/image-samples';
import { readZip } from './support/zip-entries';
import {
  buildIfStale,
  freePort,
  getOnLoopback,
  startServer,
  type ServerProcess,
} from './support/server-process';

// Two app processes on different ports, one PostgreSQL database, one S3 server and one
// Redis. The servers run as they do in production (built, started as `npm start` does), as processes of their
// own, so one can be killed with SIGKILL in the middle of its work. PostgreSQL only: generation jobs move between
// servers through PostgreSQL's job queue; on SQLite there is one process.
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const admin = { email: `boss-${randomBytes(4).toString('hex')}@example.com`, password: 'boss-pass-123' };
/** The default lease (decision 0064): how long a killed server's job waits before the other server takes it. */
const leaseSeconds = 3;
/** Enough images that generating them takes a while after "Gen." (each one is decoded and encoded twice). */
const imageCount = 150;

interface Server {
  name: string;
  base: string;
  env: Record<string, string>;
  dataDir: string;
  process: ServerProcess;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Starts (or starts again) a server process and waits until both its origins listen. */
async function start(server: Server): Promise<void> {
  server.process = startServer(server.env);
  await server.process.waitFor(/Reskin Studio on http:\/\/localhost/);
}

async function api<T>(
  server: Server,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const response = await send(server, method, path, token, body);
  if (!response.ok)
    throw new Error(`${server.name} ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function send(
  server: Server,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<Response> {
  const isForm = body instanceof FormData;
  return fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: isForm ? body : JSON.stringify(body) } : {}),
  });
}

async function login(server: Server, email: string, password: string): Promise<string> {
  return (await api<{ token: string }>(server, 'POST', '/api/user/login', undefined, { email, password }))
    .token;
}

/** Polls until `check` answers a value (not undefined); gives up after `limitMs`, naming what it waited for. */
async function eventually<T>(what: string, limitMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Every file under a server's DATA_DIR/files (none, with STORAGE=s3). */
function localStoredFiles(server: Server): string[] {
  const root = join(server.dataDir, 'files');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.runIf(testDb === 'postgres')('two app servers on one PostgreSQL, one S3 store and one Redis', () => {
  const database = `reskin_two_servers_${randomBytes(6).toString('hex')}`;
  let s3: S3Server;
  let a: Server;
  let b: Server;

  beforeAll(async () => {
    buildIfStale();
    await adminQuery(`create database "${database}"`);
    s3 = await startS3Server();
    const shared = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: postgresUrl.replace(/\/[^/]*$/, `/${database}`),
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      SEED_DEMO: 'false',
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      REDIS_URL: redisUrl,
      GENERATION_LEASE_SECONDS: String(leaseSeconds),
      // The per-address limit is not what this test counts (every request comes from 127.0.0.1).
      AUTH_RATE_LIMIT_MAX: '1000',
      LOG_LEVEL: 'info',
    };
    const server = async (name: string): Promise<Server> => {
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), `reskin-${name}-`));
      const env = { ...shared, PORT: String(port), PLAY_PORT: String(await freePort()), DATA_DIR: dataDir };
      return {
        name,
        base: `http://127.0.0.1:${port}`,
        env,
        dataDir,
        process: undefined as unknown as ServerProcess,
      };
    };
    a = await server('A');
    b = await server('B');
    // Both start at once on the new database, as a deployment of two servers does.
    await Promise.all([start(a), start(b)]);
  }, 180_000);

  afterAll(async () => {
    for (const server of [a, b]) {
      server?.process?.killProcessGroup();
      await server?.process?.exited;
      if (server) rmSync(server.dataDir, { recursive: true, force: true });
    }
    await s3?.close();
    await adminQuery(`drop database if exists "${database}" with (force)`);
  });

  it('a game uploaded through A and generated on A, which is killed at once, becomes Ready through B; it plays through B; a version uploaded through B downloads through A; nothing is stored on either disk; failed logins count across both', async () => {
    const adminToken = await login(a, admin.email, admin.password);

    // Upload through A: an index page and many images.
    const game = await api<Game>(a, 'POST', '/api/games', adminToken, {
      name: `Two servers ${randomBytes(3).toString('hex')}`,
      description: 'A game of the two-server test',
      width: 480,
      height: 640,
    });
    const colours = ['red', 'green', 'blue', 'orange', 'purple'];
    const images = await Promise.all(
      Array.from({ length: imageCount }, async (_, i) => ({
        path: `img/${i}.png`,
        content: await solidPng(1024, 768, colours[i % colours.length]),
      })),
    );
    const index = '<!doctype html><title>Two servers</title><img src="img/0.png">';
    const uploaded = await api<{ file: GameFile; replaced: boolean }[]>(
      a,
      'POST',
      `/api/game/upload/${game.id}`,
      adminToken,
      filesForm([{ path: 'index.html', content: index }, ...images]),
    );
    expect(uploaded).toHaveLength(imageCount + 1);

    // "Gen." on A, and A dies at once.
    const generating = await api<Game>(a, 'GET', `/api/games/${game.id}/generate`, adminToken);
    expect(generating.gameStatusTypeId).toBe(GameStatus.Generating);
    // The server that queued the job wakes its own worker: A takes the job at once, and dies holding it.
    const started = new RegExp(`"gameId":${game.id}[^\\n]*game generation slice started`);
    await a.process.waitFor(started);
    a.process.killProcessGroup();
    expect((await a.process.exited).signal).toBe('SIGKILL');
    const killedAt = Date.now();
    // B takes the job over when A's lease has gone unrenewed for its length (decision 0064).
    await b.process.waitFor(started);
    const takenOverAfter = (Date.now() - killedAt) / 1000;

    // B's worker takes the job over once A's lease has run out, and finishes it.
    const ready = await eventually('the game to become Ready through B', 120_000, async () => {
      const current = await api<Game>(b, 'GET', `/api/games/${game.id}`, adminToken);
      expect(current.gameStatusTypeId, current.statusReason ?? '').not.toBe(GameStatus.Failed);
      return current.gameStatusTypeId === GameStatus.Ready ? current : undefined;
    });
    expect(ready.statusReason ?? null).toBeNull();
    expect(b.process.output()).toMatch(new RegExp(`"gameId":${game.id}[^\\n]*game generated`));
    // For the record (not asserted: a timing): how long after the kill the game was Ready through B.
    console.log(
      `two servers: B took the job over ${takenOverAfter.toFixed(1)} s after A was killed and it was Ready through B ${((Date.now() - killedAt) / 1000).toFixed(1)} s after (lease ${leaseSeconds} s)`,
    );

    // It plays through B's play origin: the watermarked view of the index page and of an image.
    const paths = await api<GamePath>(b, 'GET', `/api/games/${game.id}/path`, adminToken);
    expect(new URL(paths.rootPath).port).toBe(b.env.PLAY_PORT);
    const page = await getOnLoopback(paths.wtmFile);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Two servers');
    const image = await getOnLoopback(new URL('img/1.png', paths.wtmFile).href);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');

    // A comes back; an artist's version is made and uploaded to through B and downloaded through A.
    await start(a);
    const artistBody = signupBody();
    const artist = await api<User>(b, 'POST', '/api/user/create', adminToken, artistBody);
    const assignment = await api<UserGame>(b, 'POST', '/api/user-games', adminToken, {
      userId: artist.id,
      gameId: game.id,
      userGameTypeId: 1,
      jobPrice: 10,
    });
    const artistToken = await login(b, artistBody.email, artistBody.password);
    const version = await api<GameVersion>(b, 'POST', '/api/game-versions', artistToken, {
      name: 'Blue skin',
      description: 'Made on B',
      gameId: game.id,
      userGamesId: assignment.id,
    });
    const replaced = uploaded.map((result) => result.file).find((file) => file.path === 'img/7.png')!;
    const form = new FormData();
    form.append('fullPath', replaced.path);
    form.append('file', new Blob([await solidPng(1024, 768, 'navy')]), '7.png');
    await api(b, 'POST', `/api/game-version/upload/${version.id}/${replaced.fileId}`, artistToken, form);
    const zip = await send(a, 'GET', `/api/files/${version.id}/${game.id}/files.zip`, artistToken);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect([...(await readZip(Buffer.from(await zip.arrayBuffer()))).keys()]).toEqual(['img/7.png']);

    // Every file went to the object store: neither server wrote under its DATA_DIR/files.
    expect(localStoredFiles(a)).toEqual([]);
    expect(localStoredFiles(b)).toEqual([]);

    // Failed logins of one account count on both servers together (in Redis).
    const victim = signupBody();
    await api<User>(a, 'POST', '/api/user/create', adminToken, victim);
    for (let i = 0; i < limits.failedAttempts.freeFailures; i++) {
      const response = await send(i % 2 === 0 ? a : b, 'POST', '/api/user/login', undefined, {
        email: victim.email,
        password: `wrong-${i}`,
      });
      expect(response.status).toBe(401);
    }
    for (const server of [a, b]) {
      const response = await send(server, 'POST', '/api/user/login', undefined, {
        email: victim.email,
        password: victim.password,
      });
      expect(response.status).toBe(429);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        errorCodes.rateLimited,
      );
    }
  }, 300_000);
});
