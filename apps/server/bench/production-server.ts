// The production server (dist/server.js, its own process) for the benches that measure a request as a user feels
// it, with an optional CPU profile of that process (BENCH_CPU_PROFILE=<folder>: node --cpu-prof) and the profile's
// top entries, so a bench that misses its target can say where the time went.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { freePort } from './api.bench';
import { benchAdmin } from './browser-support';

export interface ProductionServer {
  server: ChildProcess;
  /** http://127.0.0.1:<port>/api */
  base: string;
  /** The bearer header of the admin the server was started with. */
  auth: Record<string, string>;
  /** The profile's folder when BENCH_CPU_PROFILE asked for one (written when the server stops). */
  profileDir: string | undefined;
  /** Milliseconds from the spawn to the first answer: the profile's start-up, left out of profileTop. */
  startupMs: number;
  stop(): Promise<void>;
}

/** Starts dist/server.js on fresh ports with `dataDir` (SQLite, local disk) and logs the bench's admin in. */
export async function startProductionServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ProductionServer> {
  const port = await freePort();
  const spawned = performance.now();
  const profileDir = process.env.BENCH_CPU_PROFILE || undefined;
  const server = spawn(
    process.execPath,
    [...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), 'dist/server.js'],
    {
      cwd: new URL('..', import.meta.url).pathname,
      // A clean environment, as a service manager gives (nothing of tsx's NODE_OPTIONS), with glibc's settings as
      // `npm start` and the documented systemd unit give them (docs/operations.md).
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        MALLOC_ARENA_MAX: '2',
        GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
        NODE_ENV: 'production',
        PORT: String(port),
        PLAY_PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: benchAdmin.email,
        ADMIN_PASSWORD: benchAdmin.password,
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}/api`;
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    await once(server, 'exit');
  };
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/config`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      if (i > 300) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const startupMs = performance.now() - spawned;
    const login = await fetch(`${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(benchAdmin),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    return { server, base, auth, profileDir, startupMs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/**
 * The `count` entries of the newest .cpuprofile in `dir` with the most self time (samples in the function itself),
 * as "12.3% name (file:line)" lines, shares of the busy samples after the first `skipMs` (the start-up; idle left
 * out; garbage collection is an entry), or only of those within `windows` (ms since the profile began) when given,
 * after a line of the busy and idle time counted. The profile is of the main thread: sharp's and libuv's threads are
 * not in it.
 */
export function profileTop(dir: string, count = 12, skipMs = 0, windows?: [number, number][]): string[] {
  const newest = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!newest) return [`(no .cpuprofile in ${dir})`];
  const profile = JSON.parse(readFileSync(join(dir, newest), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfSamples = new Map<string, number>();
  let at = 0;
  let busyMs = 0;
  let idleMs = 0;
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i]! / 1000;
    at += delta;
    if (at < skipMs) continue;
    if (windows && !windows.some(([start, end]) => at >= start && at < end)) continue;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idleMs += delta;
      continue;
    }
    busyMs += delta;
    const file = url.includes('node_modules/')
      ? url.slice(url.lastIndexOf('node_modules/') + 13)
      : basename(url);
    const name = `${functionName || '(anonymous)'}${url ? ` (${file}:${lineNumber + 1})` : ''}`;
    selfSamples.set(name, (selfSamples.get(name) ?? 0) + 1);
  }
  const total = [...selfSamples.values()].reduce((sum, samples) => sum + samples, 0);
  const top = [...selfSamples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, samples]) => `${((samples / total) * 100).toFixed(1).padStart(5)}% ${name}`);
  if (!windows) return top;
  return [`(main thread busy ${busyMs.toFixed(0)} ms, idle ${idleMs.toFixed(0)} ms)`, ...top];
}
