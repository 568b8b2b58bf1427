import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** The load balancer's probe; GET /api/config stands in on a server without it (it answers 404 there). */
const readinessPath = '/api/health/ready';
const fallbackPath = '/api/config';
const settleMs = 2000;
/**
 * When the settled RSS is read: after the server's one collection of start-up's garbage (lib/startup-memory.ts,
 * startupGarbageDelayMs after it listens) and a few seconds more.
 */
const settledMs = 15_000;
const lightRequests = 500;

export interface StartupRun {
  /** From spawn to the first 200 of the readiness probe (polled every 5 ms): what a load balancer sees. */
  readyMs: number;
  /** CPU time (user + system, all threads) the process used until ready: what start-up costs on an idle machine. */
  readyCpuMs: number;
  /** From spawn to the log line "Reskin Studio on ..." (both ports listen); undefined for the bare baseline. */
  logLineMs: number | undefined;
  /** VmRSS 2 s after the first 200. */
  idleRssMb: number;
  /** VmRSS 15 s after the first 200 (the variants with `settle`): idle once start-up's work has settled. */
  settledRssMb: number | undefined;
  /** VmRSS 1 s after 500 light requests (the probe, GET /api/config, GET /), 10 at a time. */
  afterRequestsRssMb: number;
  /** VmHWM: the process's peak RSS over its whole life. */
  peakRssMb: number;
}

export interface StartupResult {
  label: string;
  /** The path whose first 200 counted as ready. */
  probe: string;
  runs: StartupRun[];
  readyMedianMs: number;
  readyMaxMs: number;
  readyCpuMedianMs: number;
  logLineMedianMs: number | undefined;
  idleRssMedianMb: number;
  idleRssMaxMb: number;
  settledRssMedianMb: number | undefined;
  settledRssMaxMb: number | undefined;
  afterRequestsRssMedianMb: number;
  peakRssMaxMb: number;
}

/** The target's case (production bundle, SQLite, empty DATA_DIR, no demo): ready in under 2 s, idle under 150 MB. */
export const startupTargets = { readyMs: 2000, idleRssMb: 150 };

interface Variant {
  label: string;
  /** The program started (default: this Node), with its arguments. */
  command?: string;
  args: string[];
  cwd: string;
  /** Prepares what one run needs (a data folder, a database) and answers its extra environment and clean-up. */
  prepare: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>;
  /** Also measure the RSS 15 s after ready (settledRssMb). */
  settle?: boolean;
}

async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((server) => {
      const address = server.address();
      return typeof address === 'object' && address ? address.port : 0;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** A process and its descendants, parents first (npm start: npm, then the node it runs). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    // Gone meanwhile.
  }
  return [pid, ...children.flatMap(processTree)];
}

const clockTicksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time (user + system) the process has used so far, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  // After "pid (comm) ", utime and stime are the 12th and 13th fields.
  return ((Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond) * 1000;
}

/** One GET; answers the status code, or 0 when nothing answered (connection refused while starting). */
function status(port: number, path: string, agent: Agent | false = false): Promise<number> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function runOnce(variant: Variant): Promise<{ run: StartupRun; probe: string }> {
  const [port, playPort] = await freePorts(2);
  const prepared = await variant.prepare();
  // A clean environment, as a service manager gives: nothing of npm's or tsx's (NODE_OPTIONS) leaks in.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PLAY_PORT: String(playPort),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    // As `npm start` and the documented systemd unit run it (docs/operations.md): glibc keeps at most 2 malloc arenas
    // and maps large blocks on huge pages.
    MALLOC_ARENA_MAX: '2',
    GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
    ...prepared.env,
  };
  const started = performance.now();
  const child = spawn(variant.command ?? process.execPath, variant.args, {
    cwd: variant.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logLineMs: number | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (logLineMs === undefined && line.includes('"msg":"Reskin Studio on '))
      logLineMs = performance.now() - started;
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  try {
    let probe = readinessPath;
    for (;;) {
      const code = await status(port, probe);
      if (code === 200) break;
      if (code === 404 && probe !== fallbackPath) probe = fallbackPath;
      else if (code !== 0) throw new Error(`${variant.label}: GET ${probe} answered ${code}`);
      if (exited) throw new Error(`${variant.label}: the server exited while starting: ${stderr.trim()}`);
      if (performance.now() - started > 60_000) throw new Error(`${variant.label}: not ready after 60 s`);
      await sleep(5);
    }
    const readyMs = performance.now() - started;
    // Under npm the server is a process below it (npm -> sh -> node): the CPU of all of them, the memory of the server.
    const tree = processTree(child.pid!);
    const readyCpuMs = tree.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const server = tree.at(-1)!;
    await sleep(settleMs);
    const idleRssMb = memoryMb(server).rss;
    let settledRssMb: number | undefined;
    if (variant.settle) {
      await sleep(settledMs - settleMs);
      settledRssMb = memoryMb(server).rss;
    }

    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    const paths = [probe, fallbackPath, '/'];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < lightRequests) {
          const path = paths[next++ % paths.length]!;
          const code = await status(port, path, agent);
          if (code !== 200) throw new Error(`${variant.label}: GET ${path} answered ${code}`);
        }
      }),
    );
    agent.destroy();
    await sleep(1000);
    const after = memoryMb(server);
    return {
      run: {
        readyMs,
        readyCpuMs,
        logLineMs,
        idleRssMb,
        settledRssMb,
        afterRequestsRssMb: after.rss,
        peakRssMb: after.peak,
      },
      probe,
    };
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(killer);
    }
    await prepared.cleanup();
  }
}

async function measure(variant: Variant, runs: number): Promise<StartupResult> {
  const results: StartupRun[] = [];
  let probe = readinessPath;
  for (let i = 0; i < runs; i++) {
    const once = await runOnce(variant);
    results.push(once.run);
    probe = once.probe;
  }
  const logLines = results.map((r) => r.logLineMs).filter((ms): ms is number => ms !== undefined);
  const settled = results.map((r) => r.settledRssMb).filter((mb): mb is number => mb !== undefined);
  return {
    label: variant.label,
    probe,
    runs: results,
    readyMedianMs: median(results.map((r) => r.readyMs)),
    readyMaxMs: Math.max(...results.map((r) => r.readyMs)),
    readyCpuMedianMs: median(results.map((r) => r.readyCpuMs)),
    logLineMedianMs: logLines.length ? median(logLines) : undefined,
    idleRssMedianMb: median(results.map((r) => r.idleRssMb)),
    idleRssMaxMb: Math.max(...results.map((r) => r.idleRssMb)),
    settledRssMedianMb: settled.length ? median(settled) : undefined,
    settledRssMaxMb: settled.length ? Math.max(...settled) : undefined,
    afterRequestsRssMedianMb: median(results.map((r) => r.afterRequestsRssMb)),
    peakRssMaxMb: Math.max(...results.map((r) => r.peakRssMb)),
  };
}

/** A fresh, empty DATA_DIR for each run. */
const emptyDataDir =
  (extra: Record<string, string> = {}) =>
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-startup-'));
    return {
      env: { DATA_DIR: dataDir, ...extra },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  };

/** A fresh, empty PostgreSQL database (and DATA_DIR) for each run, dropped afterwards. */
const emptyPostgresDatabase = (databaseUrl: string) => async () => {
  const name = `bench_startup_${randomBytes(5).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  await admin(`create database "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const data = await emptyDataDir({ DATABASE_URL: url.toString() })();
  return {
    env: data.env,
    cleanup: async () => {
      await data.cleanup();
      await admin(`drop database "${name}" with (force)`);
    },
  };
};

/**
 * Start-up time and idle memory of the production server (`node apps/server/dist/server.js`, built fresh by
 * scripts/build.mjs first), each run a new process on an empty DATA_DIR without demo seeding. For comparison
 * in the same run: the same on an empty PostgreSQL database (when `databaseUrl` is given), `npm start` and
 * `node scripts/start.mjs` (the build check, then the same bundle), the old way (`node --import tsx
 * src/server.ts`), and a bare Node HTTP server answering 200 (Node's own floor).
 */
export async function benchStartup(
  options: { runs?: number; databaseUrl?: string } = {},
): Promise<StartupResult[]> {
  const runs = options.runs ?? 5;
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0)
    throw new Error(`node scripts/build.mjs failed (exit ${build.status ?? build.signal})`);

  const production = ['dist/server.js'];
  const variants: { variant: Variant; runs: number }[] = [
    {
      variant: { label: 'production, SQLite', args: production, cwd: serverDir, prepare: emptyDataDir() },
      runs,
    },
    // The case that matters: idle RSS with the demo seed (accounts and the sample game, generated at start) under 150 MB.
    {
      variant: {
        label: 'production, SQLite, demo',
        args: production,
        cwd: serverDir,
        prepare: emptyDataDir({ SEED_DEMO: 'true' }),
        settle: true,
      },
      runs: Math.min(runs, 3),
    },
  ];
  if (options.databaseUrl) {
    variants.push({
      variant: {
        label: 'production, PostgreSQL',
        args: production,
        cwd: serverDir,
        prepare: emptyPostgresDatabase(options.databaseUrl),
      },
      runs: Math.min(runs, 3),
    });
  }
  // `npm start` as a user runs it, the build already fresh: npm -> sh -> node scripts/start.mjs (its build check), then
  // the same bundle in the same process; and scripts/start.mjs alone, as a service manager runs it without npm.
  variants.push(
    {
      variant: {
        label: 'npm start, SQLite',
        command: 'npm',
        args: ['start'],
        cwd: repoRoot,
        prepare: emptyDataDir(),
      },
      runs,
    },
    {
      variant: {
        label: 'node scripts/start.mjs, SQLite',
        args: ['scripts/start.mjs'],
        cwd: repoRoot,
        prepare: emptyDataDir(),
      },
      runs: Math.min(runs, 3),
    },
  );
  variants.push(
    {
      variant: {
        label: 'tsx src/server.ts, SQLite',
        args: ['--import', 'tsx', 'src/server.ts'],
        cwd: serverDir,
        prepare: emptyDataDir(),
      },
      runs: Math.min(runs, 3),
    },
    {
      variant: {
        label: 'bare node:http server',
        args: [
          '-e',
          "require('node:http').createServer((q, s) => s.end('ok')).listen(+process.env.PORT, process.env.HOST)",
        ],
        cwd: serverDir,
        prepare: emptyDataDir(),
      },
      runs: Math.min(runs, 3),
    },
  );
  const results: StartupResult[] = [];
  for (const { variant, runs: count } of variants) results.push(await measure(variant, count));
  return results;
}
