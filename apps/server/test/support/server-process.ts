import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { get, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root, where `npm start` runs. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Builds the server and the web app when stale (scripts/build.mjs), as `npm start` does before it runs. */
export function buildIfStale(env: NodeJS.ProcessEnv = {}, force = false): void {
  const result = spawnSync(process.execPath, ['scripts/build.mjs', ...(force ? ['--force'] : [])], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the build failed: ${result.stdout}\n${result.stderr}`);
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * GETs a URL on a `*.localhost` host, such as a default play URL (`http://g12.localhost:3001/p/...`, decision
 * 0017): browsers send those to the loopback address, Node's resolver does not know them, so this connects
 * to 127.0.0.1 and sends the URL's host in the Host header, as a browser would.
 */
export function getOnLoopback(
  url: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { host, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: pathname + search, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    }).on('error', reject);
  });
}

/** True when something accepts a TCP connection on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** SIGKILL to the process and everything it started (npm and node), for clean-up after a failed test. */
  killProcessGroup: () => void;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /**
   * Resolves when the output from position `from` on (default: all of it) contains the pattern; rejects if
   * the process exits first. Pass `output().length` to wait for something new.
   */
  waitFor: (pattern: RegExp, from?: number) => Promise<void>;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the server as a user does: `npm start` (npm → node scripts/start.mjs), or `node scripts/start.mjs`
 * directly, in the repository root, with the given environment on top of this one.
 */
export function startServer(env: Record<string, string>, how: 'npm' | 'node' = 'node'): ServerProcess {
  const [command, args] = how === 'npm' ? ['npm', ['start']] : [process.execPath, ['scripts/start.mjs']];
  // A process group of its own, so killProcessGroup() also reaches node under npm.
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  const waiters: { pattern: RegExp; from: number; resolve: () => void; reject: (error: Error) => void }[] =
    [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(text.slice(waiter.from))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    check();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    check();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      // Let the last output arrive before anyone reads it.
      setImmediate(() => {
        for (const waiter of waiters.splice(0)) {
          waiter.reject(
            new Error(`the server exited (${code ?? signal}) before printing ${waiter.pattern}:\n${text}`),
          );
        }
        resolve({ code, signal });
      });
    });
  });
  return {
    child,
    killProcessGroup: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
    output: () => text,
    waitFor: (pattern, from = 0) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(text.slice(from))) return resolve();
        if (child.exitCode !== null) return reject(new Error(`the server has exited:\n${text}`));
        waiters.push({ pattern, from, resolve, reject });
      }),
    exited,
  };
}
