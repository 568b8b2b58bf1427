import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './private-postgres';

/** A Redis server of one test file's own, which the test may kill and start again (never the shared one on 6379). */
export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Kills the server (SIGKILL: an outage, not a shutdown) and waits until the process has exited. */
  kill: () => Promise<void>;
  /** Starts it again on the same port, empty; waits until it accepts connections. */
  start: () => Promise<void>;
  /** Kills it if it runs. Safe after a failure and when called twice. */
  destroy: () => Promise<void>;
}

const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/**
 * `redis-server` on a free port of 127.0.0.1, in memory only (no RDB, no AOF). The binary must be installed (the
 * CI machine has it, like this one): when it is missing the test fails with a message saying so.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let running: ChildProcess | undefined;

  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: async () => {
      running = await spawnRedis(port);
    },
    kill: async () => {
      const child = running;
      running = undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    destroy: async () => redis.kill(),
  };
  await redis.start();
  return redis;
}

/** Spawns the server and resolves once it logs that it accepts connections (rejects if it exits or is missing first). */
function spawnRedis(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
    ];
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        // Keep reading so a full pipe never blocks the server.
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${binary} is not installed: this test starts a Redis server of its own (Debian: apt-get install redis-server)`,
            )
          : error,
      );
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`${binary} exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
}
