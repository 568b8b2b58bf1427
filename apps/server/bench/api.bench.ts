import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'kysely';
import { RoleType, xsrf } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { nowIso } from '../src/db/database';
import { hashPassword } from '../src/modules/users/users.service';

const connections = 50;
const durationSeconds = 8;
/**
 * A warm-up load on each server before its rounds, not counted (BENCH_API_WARMUP_SECONDS, 0 for none): a server's
 * first seconds under load are its JIT compiling the call's code (the app's first 8 s cost a third more CPU per
 * request than its next), which a server that has been up a while no longer pays, and the app has far more code to
 * compile than the floor or the bare route. The other benches warm up each side the same way.
 */
const warmupSeconds = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 4);
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(serverDir, '../..');
const autocannonCli = join(repoRoot, 'node_modules/autocannon/autocannon.js');

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  /** The server process's CPU time (user + system) per request, in ms (the app only). */
  cpuMsPerRequest?: number;
  /** On PostgreSQL, the database server's CPU time per request (all its processes), in ms. */
  databaseCpuMsPerRequest?: number;
}

export interface ApiBenchResult {
  database: 'sqlite' | 'postgres';
  /** 1: 1000 users, 200 games, 6000 versions; 10: ten times that. */
  scale: number;
  call: string;
  /** Medians over the rounds. */
  app: LoadResult;
  bare: LoadResult;
  /**
   * my-games only: bench/floor-server.mjs (SQLite) or bench/floor-server-postgres.mjs, the same reads by the request's rules and nothing else, in a
   * bare route (the floor any implementation of the call stands on).
   */
  floor?: LoadResult;
  /** The app's requests per second over the bare route's (1 = as fast as answering from memory). */
  rpsRatio: number;
  /** The app's p99 latency over the bare route's. */
  p99Ratio: number;
  rounds: number;
  /** Seconds of unmeasured load on each server before its rounds. */
  warmupSeconds: number;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const clockTicksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond) * 1000;
}

/**
 * CPU time each PostgreSQL server process on this machine has used so far, by process id: the database's share of
 * the app's requests (it runs on the same cores) is the growth between two readings (postgresCpuMsSince).
 */
export function postgresCpuByProcess(): Map<number, number> {
  const byProcess = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').includes(' (postgres) '))
        byProcess.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // The process ended while it was read.
    }
  }
  return byProcess;
}

/**
 * The CPU time PostgreSQL's processes used since `before`: each process's growth, a new one's whole time. A process
 * that ended meanwhile (another pool's idle connection closing) is left out rather than subtracted: the previous
 * total of all processes went down by a closing backend's whole life, which read as a negative database share.
 */
export function postgresCpuMsSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of postgresCpuByProcess()) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** Load from autocannon in a process of its own (not in the event loop of anything measured); 8 s unless `seconds`. */
export function load(
  url: string,
  options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; seconds?: number },
): LoadResult & { requests: number } {
  const args = [
    autocannonCli,
    '-c',
    String(connections),
    '-d',
    String(options.seconds ?? durationSeconds),
    '-m',
    options.method,
    '-j',
  ];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  if (options.body !== undefined) args.push('-b', options.body);
  args.push(url);
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`autocannon failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as {
    non2xx: number;
    errors: number;
    requests: { average: number; total: number };
    latency: { p99: number };
  };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
  };
}

/** Starts a process that prints a line when it is ready; answers the process and that line. */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${args.join(' ')} exited (${code}) before it was ready`);
  });
  const line = await Promise.race([
    (async () => {
      for await (const text of lines) if (ready.test(text)) return text;
      throw new Error('no ready line');
    })(),
    exited,
  ]);
  // The rest of its output is not read (the app logs every request at info, as in production).
  child.stdout!.resume();
  return { child, line };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/**
 * `scale` x (1000 users, 200 games with a splash image, Ready; 2000 user-games, two per user; 6000 versions, three
 * per user-game, and about 42,000 notes on them: six first notes a version, one the artist's own question, one
 * resolved, one answered), and for the measured artist 20 games in all (the my-games page of a busy artist).
 */
export async function seed(app: Awaited<ReturnType<typeof buildApp>>, scale: number): Promise<void> {
  const db = app.database.db;
  const passwordHash = await hashPassword('bench-pass-1');
  const now = nowIso();
  const users = artistRows(1000 * scale, 'artist', passwordHash, now);
  for (let i = 0; i < users.length; i += 500)
    await db
      .insertInto('users')
      .values(users.slice(i, i + 500))
      .execute();
  const games = Array.from({ length: 200 * scale }, (_, i) => ({
    name: `Game ${i}`,
    description: `The ${i}th game`,
    width: 640,
    height: 480,
    gameStatusTypeId: 2,
    isActive: 1 as const,
    imagePath: 'img/splash.png',
    rootPath: '',
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < games.length; i += 500)
    await db
      .insertInto('games')
      .values(games.slice(i, i + 500))
      .execute();
  const gameIds = (await db.selectFrom('games').select('id').orderBy('id').execute()).map((r) => r.id);
  // Each game's splash, generated (its copies made): a card shows the preview of its watermarked copy.
  const splashes = gameIds.map((gameId) => ({
    gameId,
    fileId: 1,
    path: 'img/splash.png',
    isStartFile: 0 as const,
    isSplash: 1 as const,
    width: 1280,
    height: 720,
    size: 250_000,
    contentType: 'image/png',
    storageKey: `games/${gameId}/files/splash-original`,
    copiesKey: `games/${gameId}/files/splash-original`,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < splashes.length; i += 500)
    await db
      .insertInto('gameFiles')
      .values(splashes.slice(i, i + 500))
      .execute();
  const userIds = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'like', 'artist%')
    .orderBy('id')
    .execute();
  const userGames = userIds.flatMap(({ id: userId, email }, i) =>
    Array.from({ length: email === 'artist500@example.com' ? 20 : 2 }, (_, k) => ({
      userId,
      gameId: gameIds[(i * 2 + k) % gameIds.length]!,
      userGameTypeId: 1,
      jobPrice: 100,
      isActive: 1 as const,
      createdAt: now,
      updatedAt: now,
    })),
  );
  for (let i = 0; i < userGames.length; i += 500)
    await db
      .insertInto('userGames')
      .values(userGames.slice(i, i + 500))
      .execute();
  const rows = await db.selectFrom('userGames').select(['id', 'userId', 'gameId']).orderBy('id').execute();
  const versions = rows.flatMap((ug) =>
    [0, 1, 2].map((k) => ({
      name: `Version ${k}`,
      description: 'A new look',
      gameId: ug.gameId,
      userGamesId: ug.id,
      userId: ug.userId,
      isLocked: 0 as const,
      isActive: 1 as const,
      gameVersionStatusId: 1,
      finishedAt: null,
      rootPath: '',
      createdAt: now,
      updatedAt: now,
    })),
  );
  for (let i = 0; i < versions.length; i += 500)
    await db
      .insertInto('gameVersions')
      .values(versions.slice(i, i + 500))
      .execute();
  // A studio's notes (decision 0054: My Games counts the open ones of every assignment), written in two statements.
  const reviewer = userIds[0]!.id;
  // A literal in a SELECT list is text to PostgreSQL, which a timestamptz column refuses: its own clock there.
  const at = app.database.dialect === 'postgres' ? sql`now()` : sql.lit(now);
  await sql`insert into "notes" ("versionId", "fileId", "frame", "replyTo", "authorId", "text", "resolvedAt", "createdAt", "updatedAt")
    select v."id", k.i, null, null, case when k.i = 1 then v."userId" else ${sql.lit(reviewer)} end, 'Too dark here.', case when k.i = 2 then ${at} else null end, ${at}, ${at}
    from "gameVersions" v cross join (select 1 as i union all select 2 union all select 3 union all select 4 union all select 5 union all select 6) k`.execute(
    db,
  );
  await sql`insert into "notes" ("versionId", "fileId", "frame", "replyTo", "authorId", "text", "resolvedAt", "createdAt", "updatedAt")
    select n."versionId", n."fileId", null, n."id", n."authorId", 'Answered.', null, ${at}, ${at} from "notes" n where n."fileId" = 3`.execute(
    db,
  );
}

/**
 * Users table rows of `count` activated artists (role User) named `${prefix}_${i}` / `${prefix}${i}@example.com`,
 * for benches that seed many straight into the table (this one, the browser benches).
 */
export function artistRows(count: number, prefix: string, passwordHash: string, now: string) {
  return Array.from({ length: count }, (_, i) => ({
    username: `${prefix}_${i}`,
    email: `${prefix}${i}@example.com`,
    passwordHash,
    firstName: 'Art',
    lastName: 'Ist',
    phone: '5550000000',
    roleTypeId: RoleType.User,
    activated: 1 as const,
    emailVerified: 0 as const,
    dataProtectionRegulationVersion: 1,
    createdAt: now,
    updatedAt: now,
  }));
}

/**
 * GET /user-games/my-games (an artist with 20 games with splash images) and POST /game-versions/filter (a game's
 * versions, as the admin's review pages ask), under 50 concurrent connections, against a bare Fastify route that
 * answers the same bytes from memory. The app (the production build), the baseline and the load generator are
 * three processes; app and baseline alternate over `rounds` rounds, and the medians are kept. The client sends
 * what the web app sends: the bearer token, JSON, and the XSRF cookie it keeps.
 */
export async function benchApi(
  database: 'sqlite' | 'postgres',
  options: { databaseUrl?: string; scale?: number; rounds?: number } = {},
): Promise<ApiBenchResult[]> {
  const scale = options.scale ?? 1;
  const rounds = options.rounds ?? 3;
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-api-'));
  const databaseName = database === 'postgres' ? `reskin_bench_${randomBytes(5).toString('hex')}` : undefined;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  const databaseUrl = databaseName ? options.databaseUrl!.replace(/\/[^/]*$/, `/${databaseName}`) : undefined;
  if (databaseName) await admin(`create database "${databaseName}"`);
  const env = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-pass-1',
    AUTH_RATE_LIMIT_MAX: '1000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const processes: ChildProcess[] = [];
  try {
    // Seeded in this process, then measured in the production server's.
    const seeding = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'warn' }));
    let calls: { name: string; method: 'GET' | 'POST'; path: string; token: string; body?: string }[];
    let answers: { method: string; url: string; body: string }[];
    try {
      await seed(seeding, scale);
      // A database in use has statistics (autovacuum analyzes a table once enough of it changed); without them a
      // freshly seeded one gets plans made for empty tables (at 10x the splash files read by sequential scans).
      if (database === 'postgres') await sql`analyze`.execute(seeding.database.db);
      const login = async (email: string) =>
        (
          await seeding.app.inject({
            method: 'POST',
            url: '/api/user/login',
            payload: { email, password: 'bench-pass-1' },
          })
        ).json<{ token: string }>().token;
      const gameId = (
        await seeding.database.db.selectFrom('games').select('id').orderBy('id').executeTakeFirstOrThrow()
      ).id;
      calls = [
        {
          name: 'GET /user-games/my-games',
          method: 'GET',
          path: '/api/user-games/my-games',
          token: await login('artist500@example.com'),
        },
        {
          name: 'POST /game-versions/filter',
          method: 'POST',
          path: '/api/game-versions/filter',
          token: await login('bench@example.com'),
          body: JSON.stringify({ gameId, limit: 100 }),
        },
      ];
      // BENCH_API_CALLS=my-games (a comma list of words in the calls' names) measures only those, e.g. for a CPU profile of one.
      const only = process.env.BENCH_API_CALLS?.split(',');
      if (only) calls = calls.filter((c) => only.some((word) => c.name.includes(word)));
      answers = [];
      for (const c of calls) {
        const answer = await seeding.app.inject({
          method: c.method,
          url: c.path,
          headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
          payload: c.body,
        });
        if (answer.statusCode !== 200) throw new Error(`${c.name}: ${answer.statusCode} ${answer.body}`);
        answers.push({ method: c.method, url: c.path, body: answer.rawPayload.toString('base64') });
      }
    } finally {
      await seeding.app.close();
    }

    const port = await freePort();
    // BENCH_CPU_PROFILE_DIR=<dir> writes the app's CPU profile there (node --cpu-prof) for a look at what remains.
    const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
    const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const app = await startProcess(
      [...profileArgs, 'dist/server.js'],
      {
        ...process.env,
        ...env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: String(port),
        PLAY_PORT: String(await freePort()),
      },
      /Reskin Studio on/,
    );
    processes.push(app.child);
    const routesFile = join(dataDir, 'bare-routes.json');
    writeFileSync(routesFile, JSON.stringify(answers));
    const bare = await startProcess(['bench/bare-server.mjs', routesFile], process.env, /"port"/);
    processes.push(bare.child);
    const barePort = (JSON.parse(bare.line) as { port: number }).port;
    // The floor: the same reads in a bare route, on the same database (SQLite's file or PostgreSQL's database).
    const floor =
      database === 'sqlite'
        ? await startProcess(
            ['bench/floor-server.mjs', join(dataDir, 'reskin.sqlite'), join(dataDir, 'jwt-secret')],
            process.env,
            /"port"/,
          )
        : await startProcess(
            ['bench/floor-server-postgres.mjs', databaseUrl!, join(dataDir, 'jwt-secret')],
            process.env,
            /"port"/,
          );
    if (floor) processes.push(floor.child);
    const floorPort = floor && (JSON.parse(floor.line) as { port: number }).port;

    // The web app's XSRF cookie, as it keeps it from its first request.
    const first = await fetch(`http://127.0.0.1:${port}/api/config`);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    if (!cookie.startsWith(`${xsrf.cookie}=`)) throw new Error('no XSRF cookie from the app');

    const results: ApiBenchResult[] = [];
    for (const c of calls) {
      const headers = {
        authorization: `Bearer ${c.token}`,
        'content-type': 'application/json',
        cookie,
        [xsrf.header.toLowerCase()]: cookie.split('=')[1]!,
      };
      // A load on one process, with that process's CPU per request.
      const measured = (pid: number, targetPort: number): LoadResult => {
        const cpuBefore = cpuMs(pid);
        const databaseBefore = database === 'postgres' ? postgresCpuByProcess() : new Map<number, number>();
        const result = load(`http://127.0.0.1:${targetPort}${c.path}`, {
          method: c.method,
          headers,
          body: c.body,
        });
        return {
          ...result,
          cpuMsPerRequest: (cpuMs(pid) - cpuBefore) / result.requests,
          ...(database === 'postgres' && {
            databaseCpuMsPerRequest: postgresCpuMsSince(databaseBefore) / result.requests,
          }),
        };
      };
      const withFloor = floor && floorPort && c.path === '/api/user-games/my-games';
      if (warmupSeconds > 0) {
        const ports = [port, barePort, ...(withFloor ? [floorPort] : [])];
        for (const target of ports)
          load(`http://127.0.0.1:${target}${c.path}`, {
            method: c.method,
            headers,
            body: c.body,
            seconds: warmupSeconds,
          });
      }
      const appRounds: LoadResult[] = [];
      const bareRounds: LoadResult[] = [];
      const floorRounds: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) {
        appRounds.push(measured(app.child.pid!, port));
        bareRounds.push(measured(bare.child.pid!, barePort));
        if (withFloor) floorRounds.push(measured(floor.child.pid!, floorPort));
      }
      const medianOf = (loads: LoadResult[]): LoadResult => ({
        requestsPerSecond: median(loads.map((r) => r.requestsPerSecond)),
        p99Ms: median(loads.map((r) => r.p99Ms)),
        cpuMsPerRequest: median(loads.map((r) => r.cpuMsPerRequest!)),
        ...(database === 'postgres' && {
          databaseCpuMsPerRequest: median(loads.map((r) => r.databaseCpuMsPerRequest!)),
        }),
      });
      const appMedian = medianOf(appRounds);
      const bareMedian = medianOf(bareRounds);
      results.push({
        database,
        scale,
        call: c.name,
        app: appMedian,
        bare: bareMedian,
        ...(withFloor && { floor: medianOf(floorRounds) }),
        rpsRatio: appMedian.requestsPerSecond / bareMedian.requestsPerSecond,
        p99Ratio: appMedian.p99Ms / Math.max(1, bareMedian.p99Ms),
        rounds,
        warmupSeconds,
      });
    }
    return results;
  } finally {
    for (const child of processes) await stop(child);
    if (databaseName) await admin(`drop database if exists "${databaseName}" with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
