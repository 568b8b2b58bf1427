import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Game, GameFile } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { accelCopiedHeaders, playHeaders } from '../src/play/play-app';
import { cpuMs, freePort, load, median, startProcess, stop, type LoadResult } from './api.bench';

const roundSeconds = 5;
/** The internal location nginx serves DATA_DIR/files from, as docs/operations.md configures it. */
const accelPrefix = '/_stored/';

/** What serves a game file in the play bench. */
export type PlayTarget = 'app' | 'app-no-usage' | 'bare' | 'nginx' | 'nginx+app';

export interface PlayBenchResult {
  file: string;
  bytes: number;
  /** Medians over the rounds; nginx and nginx+app only when nginx is installed. */
  results: Partial<Record<PlayTarget, LoadResult>>;
  rounds: number;
}

/** Bytes on the wire for the 5 MB script with `Accept-Encoding: br, gzip` (or `gzip` for nginx alone). */
export interface WireSizes {
  bytes: number;
  app: { encoding: string; bytes: number };
  appGzip: { encoding: string; bytes: number };
  nginx?: { encoding: string; bytes: number } | undefined;
  /** nginx in front of the play origin with X-Accel-Redirect: the play origin sends compressed answers itself. */
  nginxApp?: { encoding: string; bytes: number } | undefined;
}

/** The nginx worker of a master started with one worker (its CPU is the worker's, not the master's). */
function workerOf(master: number): number | undefined {
  try {
    const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return children.length > 0 ? Number(children[0]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A script of `size` bytes that compresses about as a real engine build does (identifiers and numbers from a
 * seeded generator, not one repeated line): gzip makes it 3-5x smaller, as it does Unity's 5 MB framework.
 */
function frameworkScript(size: number): Buffer {
  let seed = 29;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = Array.from({ length: 4000 }, () => Math.floor(next() * 2 ** 40).toString(36));
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const a = words[Math.floor(next() * words.length)]!;
    const b = words[Math.floor(next() * words.length)]!;
    const line = `function ${a}(${b}, n) { var x = ${b}[${Math.floor(next() * 65536)}] | 0; return ${a}_${b}(x + n * ${(next() * 1000).toFixed(3)}); }\n`;
    parts.push(line);
    length += line.length;
  }
  return Buffer.from(parts.join('')).subarray(0, size);
}

/** nginx on this machine, or undefined (the bench then measures without it). */
export function nginxPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : undefined;
}

/** Resolves once something accepts connections on the port. */
async function listening(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

/**
 * nginx with a generated configuration, as the current user, one worker (as the app is one process): on
 * `alonePort` it serves DATA_DIR/files itself (`/<key>`); on `frontPort` it passes /p/ to the play origin (which
 * runs with PLAY_ACCEL_REDIRECT) and sends the file from the internal location the app names, as
 * docs/operations.md configures it.
 */
async function startNginx(
  nginx: string,
  dir: string,
  filesDir: string,
  ports: { alone: number; front: number; play: number },
): Promise<ChildProcess> {
  const fromApp = accelCopiedHeaders;
  const config = `
${process.getuid?.() === 0 ? `user ${userInfo().username};` : ''}
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  types { text/javascript js; image/png png; }
  default_type application/octet-stream;
  upstream play_origin { server 127.0.0.1:${ports.play}; keepalive 64; }
  server {
    listen 127.0.0.1:${ports.alone};
    # For the wire sizes only (the loads ask for no encoding): what nginx alone would send a browser.
    gzip on;
    gzip_types text/javascript;
    location / { alias ${filesDir}/; }
  }
  server {
    listen 127.0.0.1:${ports.front};
    location ~ ^/[ps]/ {
      proxy_pass http://play_origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
    }
    location ${accelPrefix} {
      internal;
      alias ${filesDir}/;
      etag off;
${fromApp.map((name) => `      add_header ${name} $upstream_http_${name.toLowerCase().replaceAll('-', '_')};`).join('\n')}
    }
  }
}
`;
  const conf = join(dir, 'nginx.conf');
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileSync(conf, config);
  const child = spawn(
    nginx,
    ['-p', dir, '-c', conf, '-e', 'stderr', '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await listening(ports.alone, child);
  await listening(ports.front, child);
  return child;
}

/** One GET with the given Host header (fetch would not send it); the body as sent (not decoded). */
function getOnce(
  url: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { host, ...headers }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** A PNG of random pixels (it does not compress) of about `kilobytes`. */
async function noisePng(kilobytes: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt((kilobytes * 1024) / 3));
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(Math.random() * 256);
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/**
 * A game's 512 KB script and 100 KB PNG from the play origin (the production build, LOG_LEVEL=info, its own
 * process) under 50 connections, against a bare Node file server (bench/bare-file-server.mjs: node:http and
 * fs.createReadStream, the same headers, no checks) on the same stored files, and, when nginx is installed,
 * nginx serving the files alone and nginx in front of the play origin with X-Accel-Redirect (the app checks,
 * nginx sends). 'app-no-usage' is the same play origin with PLAY_USAGE=false (decision 0023: the usage record's
 * cost is app / app-no-usage). The link is an administrator's (the original view) on the game's own host. Targets alternate
 * over `rounds` rounds of 5 s; the medians are kept, with each server process's CPU per request.
 */
export async function benchPlay({ rounds = 3 }: { rounds?: number } = {}): Promise<{
  files: PlayBenchResult[];
  nginx: boolean;
  wire: WireSizes;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-play-'));
  const filesDir = join(dataDir, 'files');
  const env = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-pass-1',
  };
  const processes: ChildProcess[] = [];
  try {
    const script = Buffer.from(
      `// engine\n${'window.engine = (window.engine || 0) + 1; /* padding for a 512 KB build */\n'.repeat(8000)}`.slice(
        0,
        512 * 1024,
      ),
    );
    const image = await noisePng(100);
    // A sprite of 9 KB, the size of most: per-request work, not bytes, decides its rate.
    const sprite = await noisePng(9);
    const framework = frameworkScript(5 * 1024 * 1024);
    const files = [
      { path: 'lib/engine.js', content: script },
      { path: 'img/sprites.png', content: image },
      { path: 'img/sprite.png', content: sprite },
    ];
    // Its size on the wire with Accept-Encoding; loaded as stored for CPU per MB (where bytes, not requests, count).
    const wireFile = { path: 'lib/framework.js', content: framework };
    files.push(wireFile);
    // Seeded through the API in this process, then measured in the production server's.
    const seeding = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'warn' }));
    let root: string;
    let keys: Map<string, string>;
    let gameId: number;
    try {
      const token = (
        await seeding.app.inject({
          method: 'POST',
          url: '/api/user/login',
          payload: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
        })
      ).json<{ token: string }>().token;
      const headers = { authorization: `Bearer ${token}` };
      const game = (
        await seeding.app.inject({
          method: 'POST',
          url: '/api/games',
          headers,
          payload: { name: 'Bench', description: 'x', width: 480, height: 640 },
        })
      ).json<Game>();
      gameId = game.id;
      const body = new FormData();
      for (const file of files) {
        body.append('fullPath', file.path);
        body.append('file', new Blob([file.content]), file.path);
      }
      const uploaded = await seeding.app.inject({
        method: 'POST',
        url: `/api/game/upload/${game.id}`,
        headers,
        payload: body,
      });
      if (uploaded.statusCode !== 200) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`);
      const listed = (
        await seeding.app.inject({ method: 'GET', url: `/api/games/${game.id}/files`, headers })
      ).json<GameFile[]>();
      if (listed.length !== files.length) throw new Error('the upload did not store every file');
      root = (
        await seeding.app.inject({ method: 'GET', url: `/api/games/${game.id}/files-root`, headers })
      ).json<{ rootPath: string }>().rootPath;
      const rows = await seeding.database.db
        .selectFrom('gameFiles')
        .select(['path', 'storageKey'])
        .where('gameId', '=', game.id)
        .execute();
      keys = new Map(rows.map((row) => [row.path, row.storageKey]));
    } finally {
      await seeding.app.close();
    }

    const nginx = nginxPath();
    const [port, playPort, accelPort, accelPlayPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const [plainPort, plainPlayPort] = [await freePort(), await freePort()];
    // BENCH_CPU_PROFILE_DIR=<dir> writes the play origins' CPU profiles there (node --cpu-prof).
    const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
    const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const serverEnv = {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
    };
    // The link's origin is the game's own host on PLAY_PORT (the default PLAY_ORIGIN): requests carry that Host.
    const host = `g${gameId}.localhost:${playPort}`;
    const app = await startProcess(
      [...profileArgs, 'dist/server.js'],
      { ...serverEnv, PORT: String(port), PLAY_PORT: String(playPort) },
      /Reskin Studio on/,
    );
    processes.push(app.child);
    // The same play origin without the usage record, on the same data; links name the first one's host.
    const plain = await startProcess(
      [...profileArgs, 'dist/server.js'],
      {
        ...serverEnv,
        PORT: String(plainPort),
        PLAY_PORT: String(plainPlayPort),
        PLAY_ORIGIN: `http://g{game}.localhost:${playPort}`,
        PLAY_USAGE: 'false',
      },
      /Reskin Studio on/,
    );
    processes.push(plain.child);
    const bare = await startProcess(['bench/bare-file-server.mjs', filesDir], process.env, /"port"/);
    processes.push(bare.child);
    const barePort = (JSON.parse(bare.line) as { port: number }).port;
    let front:
      | {
          nginx: ChildProcess;
          worker: number | undefined;
          app: ChildProcess;
          alonePort: number;
          frontPort: number;
        }
      | undefined;
    if (nginx) {
      // A second play origin on the same data, with PLAY_ACCEL_REDIRECT, behind nginx (which passes the Host on).
      const accelApp = await startProcess(
        [...profileArgs, 'dist/server.js'],
        {
          ...serverEnv,
          PORT: String(accelPort),
          PLAY_PORT: String(accelPlayPort),
          PLAY_ORIGIN: `http://g{game}.localhost:${playPort}`,
          PLAY_ACCEL_REDIRECT: accelPrefix,
        },
        /Reskin Studio on/,
      );
      processes.push(accelApp.child);
      const [alonePort, frontPort] = [await freePort(), await freePort()];
      const nginxDir = join(dataDir, 'nginx');
      mkdirSync(nginxDir);
      const child = await startNginx(nginx, nginxDir, filesDir, {
        alone: alonePort,
        front: frontPort,
        play: accelPlayPort,
      });
      processes.push(child);
      front = { nginx: child, worker: workerOf(child.pid!), app: accelApp.child, alonePort, frontPort };
    }

    // The framework script's bytes on the wire: the play origin's brotli and gzip, nginx's gzip (level 1, its default).
    const wirePath = `${new URL(root).pathname}${wireFile.path}`;
    const sent = async (url: string, acceptEncoding: string) => {
      const answer = await getOnce(url, host, { 'accept-encoding': acceptEncoding });
      if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
      return {
        encoding: String(answer.headers['content-encoding'] ?? 'identity'),
        bytes: answer.body.length,
      };
    };
    const wire: WireSizes = {
      bytes: wireFile.content.length,
      app: await sent(`http://127.0.0.1:${playPort}${wirePath}`, 'br, gzip'),
      appGzip: await sent(`http://127.0.0.1:${playPort}${wirePath}`, 'gzip'),
      nginx: front && (await sent(`http://127.0.0.1:${front.alonePort}/${keys.get(wireFile.path)!}`, 'gzip')),
      nginxApp: front && (await sent(`http://127.0.0.1:${front.frontPort}${wirePath}`, 'br, gzip')),
    };

    const results: PlayBenchResult[] = [];
    // BENCH_PLAY_FILE=<path> loads only that file (a profile of one kind of request).
    const only = process.env.BENCH_PLAY_FILE;
    for (const file of files.filter((f) => only === undefined || f.path === only)) {
      const key = keys.get(file.path)!;
      const playPath = `${new URL(root).pathname}${file.path}`;
      const targets: { target: PlayTarget; url: string; pids: number[] }[] = [
        { target: 'app', url: `http://127.0.0.1:${playPort}${playPath}`, pids: [app.child.pid!] },
        {
          target: 'app-no-usage',
          url: `http://127.0.0.1:${plainPlayPort}${playPath}`,
          pids: [plain.child.pid!],
        },
        { target: 'bare', url: `http://127.0.0.1:${barePort}/${key}`, pids: [bare.child.pid!] },
      ];
      if (front) {
        // nginx's CPU is its worker's; nginx+app counts the worker's and the play origin's.
        const worker = front.worker === undefined ? [] : [front.worker];
        targets.push({ target: 'nginx', url: `http://127.0.0.1:${front.alonePort}/${key}`, pids: worker });
        targets.push({
          target: 'nginx+app',
          url: `http://127.0.0.1:${front.frontPort}${playPath}`,
          pids: [front.app.pid!, ...worker],
        });
      }
      // Each answer checked once before it is loaded: the bytes of the file; through nginx, the play origin's headers.
      for (const { target, url } of targets) {
        const answer = await getOnce(url, host);
        if (answer.status !== 200 || !answer.body.equals(file.content))
          throw new Error(`${target} ${url}: ${answer.status}, ${answer.body.length} bytes`);
        if (target !== 'nginx+app') continue;
        const direct = await getOnce(targets[0]!.url, host);
        for (const name of [
          'content-type',
          'etag',
          'cache-control',
          ...Object.keys(playHeaders).map((header) => header.toLowerCase()),
        ]) {
          if (answer.headers[name] !== direct.headers[name])
            throw new Error(
              `nginx+app: ${name} ${String(answer.headers[name])}, not ${String(direct.headers[name])}`,
            );
        }
        if (answer.headers['x-accel-redirect'] !== undefined)
          throw new Error('nginx+app: X-Accel-Redirect reached the client');
      }
      const loads = new Map<PlayTarget, LoadResult[]>();
      for (let round = 0; round < rounds; round++) {
        for (const { target, url, pids } of targets) {
          const before = pids.map(cpuMs);
          const result = load(url, { method: 'GET', headers: { host }, seconds: roundSeconds });
          const cpu = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - before[i]!, 0);
          loads.set(target, [
            ...(loads.get(target) ?? []),
            { ...result, ...(pids.length > 0 && { cpuMsPerRequest: cpu / result.requests }) },
          ]);
        }
      }
      const medians: PlayBenchResult['results'] = {};
      for (const [target, rows] of loads) {
        medians[target] = {
          requestsPerSecond: median(rows.map((r) => r.requestsPerSecond)),
          p99Ms: median(rows.map((r) => r.p99Ms)),
          ...(rows[0]!.cpuMsPerRequest !== undefined && {
            cpuMsPerRequest: median(rows.map((r) => r.cpuMsPerRequest!)),
          }),
        };
      }
      results.push({ file: file.path, bytes: file.content.length, results: medians, rounds });
    }
    return { files: results, nginx: front !== undefined, wire };
  } finally {
    for (const child of processes) await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
