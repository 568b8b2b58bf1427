import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game, GameFile, GamePath } from '@reskin/contract';
import { testDb } from './helpers';
import {
  buildIfStale,
  freePort,
  getOnLoopback,
  listening,
  repoRoot,
  startServer,
  type ServerProcess,
} from './support/server-process';

// The server as it runs in production: built by scripts/build.mjs and started the way `npm start` starts
// it, as a process of its own. It does not depend on the database kind, so it runs in the SQLite pass only.
const admin = { email: 'boss@example.com', password: 'boss-pass-123' };

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Logs the configured administrator in and creates a game: the token and the game. */
async function adminWithGame(base: string, name: string): Promise<{ token: string; game: Game }> {
  const { token } = await json<{ token: string }>(
    await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    }),
  );
  const game = await json<Game>(
    await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        description: `${name}: a game of the process tests`,
        width: 480,
        height: 640,
      }),
    }),
  );
  return { token, game };
}

/** A multipart upload whose body the test sends in two parts, so it is still arriving when asked to. */
function slowUpload(port: number, path: string, token: string, fileName: string, size: number) {
  const boundary = 'reskin-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="fullPath"\r\n\r\n${fileName}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName.split('/').pop()}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const content = Buffer.alloc(size, 'x');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let request!: ClientRequest;
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + content.length + tail.length,
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
  });
  request.write(head);
  request.write(content.subarray(0, 1024));
  return { answered, finish: () => request.end(Buffer.concat([content.subarray(1024), tail])) };
}

/** Waits (by polling, no time limit but the test's) until nothing accepts connections on the port. */
async function untilClosed(port: number): Promise<void> {
  while (await listening(port)) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe.skipIf(testDb === 'postgres')('the production server process', () => {
  const dataDirs: string[] = [];
  const started: ServerProcess[] = [];
  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'reskin-process-'));
    dataDirs.push(dir);
    return dir;
  };
  async function start(env: Record<string, string>, how: 'npm' | 'node' = 'node') {
    const port = await freePort();
    let playPort = await freePort();
    while (playPort === port) playPort = await freePort();
    const dataDir = newDataDir();
    const server = startServer(
      { PORT: String(port), PLAY_PORT: String(playPort), DATA_DIR: dataDir, ...env },
      how,
    );
    started.push(server);
    return { server, port, playPort, dataDir, base: `http://127.0.0.1:${port}` };
  }

  // The shell's NODE_ENV=development must not give a development build of the web app.
  beforeAll(() => buildIfStale({ NODE_ENV: 'development' }, true), 180_000);
  afterAll(() => {
    for (const server of started) server.killProcessGroup();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('builds nothing when the build is fresh (npm start then goes straight to node)', () => {
    const again = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(again.stdout + again.stderr).toBe('');
  });

  it('builds nothing for a source touched but not changed, and keeps its new time in the stamp', () => {
    const source = join(repoRoot, 'apps/server/src/server.ts');
    const stampOf = () =>
      JSON.parse(readFileSync(join(repoRoot, 'apps/server/dist/.build-stamp.json'), 'utf8')) as {
        hash: string;
        signature: string;
      };
    const before = stampOf();
    const { atime, mtime } = statSync(source);
    utimesSync(source, atime, new Date(mtime.getTime() + 1000));
    try {
      const again = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, encoding: 'utf8' });
      expect(again.status).toBe(0);
      expect(again.stdout + again.stderr).toBe('');
      const after = stampOf();
      expect(after.hash).toBe(before.hash);
      expect(after.signature).not.toBe(before.signature);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });

  it('serves a production build of the web app: no React development code in any served asset', async () => {
    const { server, base } = await start({ SEED_DEMO: 'false', NODE_ENV: 'development' });
    await server.waitFor(/Reskin Studio on http/);
    const page = await fetch(`${base}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const linked = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(linked.length).toBeGreaterThan(0);
    const all = readdirSync(join(repoRoot, 'apps/web/dist/assets')).filter((name) =>
      /\.(js|css)$/.test(name),
    );
    for (const path of new Set([...linked, ...all.map((name) => `/assets/${name}`)])) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      const text = await response.text();
      // Only React's development build has these: the dev JSX runtime and the act() warnings.
      expect(text, path).not.toContain('jsxDEV');
      expect(text, path).not.toContain('act(...)');
    }
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('[API-1] npm start, then SIGTERM to npm: both ports stop accepting, the upload in flight completes, the server exits 0; no token, ticket or Authorization reaches the log; X-Request-Id is kept', async () => {
    // At debug level every request is logged as it begins (the upload below is seen arriving) and the play
    // origin's file requests too: the most the log ever holds, none of it a credential.
    const { server, port, playPort, base } = await start(
      {
        SEED_DEMO: 'false',
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        DRAIN_TIMEOUT_SECONDS: '30',
        LOG_LEVEL: 'trace',
      },
      'npm',
    );
    await server.waitFor(/Reskin Studio on http/);
    const { token, game } = await adminWithGame(base, 'Drain');
    const auth = { authorization: `Bearer ${token}` };
    const form = new FormData();
    form.append('fullPath', 'drain/index.html');
    form.append('file', new Blob(['<!doctype html><title>Drain</title>']), 'index.html');
    const [index] = await json<{ file: GameFile }[]>(
      await fetch(`${base}/api/game/upload/${game.id}`, { method: 'POST', headers: auth, body: form }),
    );
    await json(
      await fetch(`${base}/api/games/${game.id}/files/${index!.file.fileId}/index`, {
        method: 'PATCH',
        headers: auth,
      }),
    );
    await json(await fetch(`${base}/api/games/${game.id}/generate`, { headers: auth }));
    while (
      (await json<Game>(await fetch(`${base}/api/games/${game.id}`, { headers: auth }))).gameStatusTypeId !==
      2
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    // The request id: an incoming X-Request-Id is echoed and logged; the play token it answers is not logged.
    const pathResponse = await fetch(`${base}/api/games/${game.id}/path/`, {
      headers: { ...auth, 'x-request-id': 'support-ticket-4711' },
    });
    expect(pathResponse.headers.get('x-request-id')).toBe('support-ticket-4711');
    const paths = await json<GamePath>(pathResponse);
    const playToken = new URL(paths.orjFile).pathname.split('/')[2]!;
    // The default play origin: a host per game under localhost, on PLAY_PORT (decision 0017).
    expect(new URL(paths.orjFile).host).toBe(`g${game.id}.localhost:${playPort}`);
    const played = await getOnLoopback(paths.orjFile);
    expect(played.status).toBe(200);
    expect(played.headers['x-request-id']).toEqual(expect.any(String));

    // A helper file's download ticket.
    const helperForm = new FormData();
    helperForm.append('fullPath', 'notes.txt');
    helperForm.append('file', new Blob(['notes']), 'notes.txt');
    await json(
      await fetch(`${base}/api/games/${game.id}/psd-files/`, {
        method: 'POST',
        headers: auth,
        body: helperForm,
      }),
    );
    const {
      files: [helper],
    } = await json<{ files: { url: string }[] }>(
      await fetch(`${base}/api/games/${game.id}/psd-files/`, { headers: auth }),
    );
    const ticket = new URL(helper!.url, base).searchParams.get('ticket')!;
    expect((await fetch(new URL(helper!.url, base))).status).toBe(200);

    // An upload still arriving when npm is told to stop.
    const logged = server.output().length;
    const upload = slowUpload(port, `/api/game/upload/${game.id}`, token, 'drain/data.bin', 512 * 1024);
    await server.waitFor(/"url":"\/api\/game\/upload\/\d+"/, logged);
    server.child.kill('SIGTERM');
    await server.waitFor(/SIGTERM: draining/);
    await untilClosed(port);
    await untilClosed(playPort);
    upload.finish();
    const answer = await upload.answered;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject([{ file: { path: 'drain/data.bin', size: 512 * 1024 } }]);

    expect((await server.exited).code).toBe(0);
    expect(server.output()).toMatch(/"msg":"stopped"/);
    expect(await listening(port)).toBe(false);
    expect(await listening(playPort)).toBe(false);

    const log = server.output();
    expect(log).toContain('"reqId":"support-ticket-4711"');
    expect(log).toContain('/p/[redacted]/');
    expect(log).toContain('ticket=[redacted]');
    expect(log).not.toContain(playToken);
    expect(log).not.toContain(ticket);
    expect(log).not.toContain(token);
  });

  it('npm start, then SIGINT to its whole process group (Ctrl+C; node hears it twice): the upload in flight still completes', async () => {
    // LOG_LEVEL=trace logs each request as it begins: the upload is seen arriving.
    const { server, port, base } = await start(
      {
        SEED_DEMO: 'false',
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        DRAIN_TIMEOUT_SECONDS: '30',
        LOG_LEVEL: 'trace',
      },
      'npm',
    );
    await server.waitFor(/Reskin Studio on http/);
    const { token, game } = await adminWithGame(base, 'Interrupted');
    const logged = server.output().length;
    const upload = slowUpload(port, `/api/game/upload/${game.id}`, token, 'ctrl-c/data.bin', 128 * 1024);
    await server.waitFor(/"url":"\/api\/game\/upload\/\d+"/, logged);
    process.kill(-server.child.pid!, 'SIGINT');
    await server.waitFor(/SIGINT: draining/);
    await untilClosed(port);
    upload.finish();
    const answer = await upload.answered;
    expect(answer.status, answer.body).toBe(200);
    await server.exited;
    expect(server.output()).toMatch(/"msg":"stopped"/);
    expect(await listening(port)).toBe(false);
  });

  it('exits with code 1 once the drain timeout passes with a request still running', async () => {
    const { server, port, base } = await start({
      SEED_DEMO: 'false',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      DRAIN_TIMEOUT_SECONDS: '0.5',
      LOG_LEVEL: 'trace',
    });
    await server.waitFor(/Reskin Studio on http/);
    const { token, game } = await adminWithGame(base, 'Stalled');
    const upload = slowUpload(port, `/api/game/upload/${game.id}`, token, 'stalled/data.bin', 64 * 1024);
    upload.answered.catch(() => {});
    await server.waitFor(/"url":"\/api\/game\/upload\/\d+"/);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toMatch(/requests still running after 500 ms: exiting/);
  });

  it('with NODE_ENV=production the demo accounts are not seeded, and a start without an administrator warns how to make one', async () => {
    const { server, base } = await start({ NODE_ENV: 'production' });
    await server.waitFor(/Reskin Studio on http/);
    const demoLogin = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin1234' }),
    });
    expect(demoLogin.status).toBe(401);
    expect(server.output()).toMatch(/NO ACTIVE ADMINISTRATOR[^\n]*ADMIN_EMAIL and ADMIN_PASSWORD/);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  describe('configuration errors: one line naming the variable, exit code 1, nothing opened or seeded', () => {
    async function refused(env: Record<string, string>, expected: RegExp) {
      const { server, dataDir } = await start({ SEED_DEMO: 'true', ...env });
      const { code } = await server.exited;
      expect(code).toBe(1);
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.trim() !== '');
      expect(lines, server.output()).toHaveLength(1);
      expect(lines[0]).toMatch(/^Reskin Studio cannot start: /);
      expect(lines[0]).toMatch(expected);
      expect(existsSync(join(dataDir, 'reskin.sqlite'))).toBe(false);
    }

    it('a PORT that is not a port number', () =>
      refused({ PORT: 'eighty' }, /PORT="eighty": expected a port number from 0 to 65535/));

    it('a DATABASE_URL that is neither SQLite nor PostgreSQL', () =>
      refused(
        { DATABASE_URL: 'mysql://root:hunter2@db/reskin' },
        /DATABASE_URL="mysql:\/\/\*\*\*@db\/reskin": expected postgres:\/\//,
      ));

    it('a PORT another process listens on', async () => {
      const taken: Server = createServer();
      const port = await new Promise<number>((resolve) =>
        taken.listen(0, '0.0.0.0', () => resolve((taken.address() as { port: number }).port)),
      );
      try {
        await refused(
          { PORT: String(port) },
          new RegExp(`PORT=${port}: port ${port} on localhost is in use by another process`),
        );
      } finally {
        taken.close();
      }
    });

    it('a DRAIN_TIMEOUT_SECONDS that is not a number', () =>
      refused(
        { DRAIN_TIMEOUT_SECONDS: 'soon' },
        /DRAIN_TIMEOUT_SECONDS="soon": expected a number of seconds/,
      ));
  });
});
