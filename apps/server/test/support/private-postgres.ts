import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Where initdb and pg_ctl live (Debian's PostgreSQL 15 unless PG_BIN_DIR says otherwise). */
const binDir = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** A PostgreSQL cluster of one test file's own, which the test may stop and start at will. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, no password). */
  url: string;
  port: number;
  /** Starts the cluster again after stop(); waits until it accepts connections. */
  start: () => Promise<void>;
  /** `pg_ctl stop -m fast`: every session is ended and the port closes; waits until the server is down. */
  stop: () => Promise<void>;
  /** Stops the cluster if it runs and deletes its folder. Safe after a failure and when called twice. */
  destroy: () => Promise<void>;
}

/** A TCP port that nothing listens on at the moment of the call. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * initdb into a temporary folder and start the server on a free port, on 127.0.0.1 only, with its socket in
 * that folder. PostgreSQL refuses to run as root, so as root the binaries run as the user `postgres`.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'reskin-pg-'));
  const dataDir = join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  const pgTool = async (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(binDir, tool);
    const commandArgs = asRoot ? ['-u', 'postgres', '--', join(binDir, tool), ...args] : args;
    await execFileAsync(command, commandArgs, { cwd: folder, timeout: 60_000 });
  };
  let running = false;

  const cluster: PrivatePostgres = {
    url: '',
    port: 0,
    start: async () => {
      await pgTool('pg_ctl', ['start', '-D', dataDir, '-w', '-l', join(folder, 'server.log')]);
      running = true;
    },
    stop: async () => {
      await pgTool('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w']);
      running = false;
    },
    destroy: async () => {
      try {
        if (running) await pgTool('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
      } catch {
        // pg_ctl could not stop it: end the postmaster we started, by the pid it wrote.
        const pidFile = join(dataDir, 'postmaster.pid');
        if (existsSync(pidFile))
          process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGQUIT');
      } finally {
        running = false;
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };

  try {
    if (asRoot) await execFileAsync('chown', ['postgres', folder]);
    await pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    cluster.port = await freePort();
    cluster.url = `postgres://postgres@127.0.0.1:${cluster.port}/postgres`;
    appendFileSync(
      join(dataDir, 'postgresql.conf'),
      [
        `port = ${cluster.port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${folder}'`,
        // A throw-away cluster: durability only slows the tests down.
        'fsync = off',
        'full_page_writes = off',
        '',
      ].join('\n'),
    );
    await cluster.start();
    return cluster;
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
}
