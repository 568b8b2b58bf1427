import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { RoleType } from '@reskin/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { nowIso } from '../src/db/database';
import { hashPassword } from '../src/modules/users/users.service';

const connections = 50;
const durationSeconds = 8;

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
}

export interface ApiBenchResult {
  database: 'sqlite' | 'postgres';
  call: string;
  app: LoadResult;
  bare: LoadResult;
  /** The app's requests per second over the bare route's (1 = as fast as answering from memory). */
  rpsRatio: number;
  /** The app's p99 latency over the bare route's. */
  p99Ratio: number;
}

async function load(url: string, options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: durationSeconds, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}

/** 1000 users, 200 games, 2000 user-games (two per user), 6000 versions (three per user-game). */
async function seed(app: Awaited<ReturnType<typeof buildApp>>): Promise<void> {
  const db = app.database.db;
  const passwordHash = await hashPassword('bench-pass-1');
  const now = nowIso();
  const users = Array.from({ length: 1000 }, (_, i) => ({
    username: `artist_${i}`,
    email: `artist${i}@example.com`,
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
  for (let i = 0; i < users.length; i += 200) await db.insertInto('users').values(users.slice(i, i + 200)).execute();
  const games = Array.from({ length: 200 }, (_, i) => ({
    name: `Game ${i}`,
    description: `The ${i}th game`,
    width: 640,
    height: 480,
    gameStatusTypeId: 2,
    isActive: 1 as const,
    imagePath: '',
    rootPath: '',
    createdAt: now,
    updatedAt: now,
  }));
  await db.insertInto('games').values(games).execute();
  const userIds = (await db.selectFrom('users').select('id').where('email', 'like', 'artist%').orderBy('id').execute()).map((r) => r.id);
  const gameIds = (await db.selectFrom('games').select('id').orderBy('id').execute()).map((r) => r.id);
  const userGames = userIds.flatMap((userId, i) =>
    [0, 1].map((k) => ({ userId, gameId: gameIds[(i * 2 + k) % gameIds.length]!, userGameTypeId: 1, jobPrice: 100, isActive: 1 as const, createdAt: now, updatedAt: now })),
  );
  for (let i = 0; i < userGames.length; i += 500) await db.insertInto('userGames').values(userGames.slice(i, i + 500)).execute();
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
  for (let i = 0; i < versions.length; i += 500) await db.insertInto('gameVersions').values(versions.slice(i, i + 500)).execute();
}

/**
 * GET /user-games/my-games and POST /game-versions/filter under 50 concurrent connections, each against a bare
 * Fastify route that answers the same bytes from memory, in the same process and run.
 */
export async function benchApi(database: 'sqlite' | 'postgres', databaseUrl?: string): Promise<ApiBenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-api-'));
  const schema = database === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  if (schema) await admin(`create schema "${schema}"`);
  const built = await buildApp({
    ...loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-pass-1' }),
    databaseUrl: schema ? databaseUrl : undefined,
    databaseSchema: schema,
    authRateLimitMax: 1000,
  });
  const bare = Fastify({ logger: false });
  try {
    await seed(built);
    const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const login = async (email: string) =>
      (await built.app.inject({ method: 'POST', url: '/api/user/login', payload: { email, password: 'bench-pass-1' } })).json<{ token: string }>().token;
    const artistToken = await login('artist500@example.com');
    const adminToken = await login('bench@example.com');
    const artistId = (await built.database.db.selectFrom('users').select('id').where('email', '=', 'artist500@example.com').executeTakeFirstOrThrow()).id;

    const calls = [
      { name: 'GET /user-games/my-games', method: 'GET' as const, path: '/api/user-games/my-games', token: artistToken, body: undefined },
      { name: 'POST /game-versions/filter', method: 'POST' as const, path: '/api/game-versions/filter', token: adminToken, body: JSON.stringify({ userId: artistId }) },
    ];
    for (const c of calls) {
      const answer = await built.app.inject({ method: c.method, url: c.path, headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' }, payload: c.body });
      if (answer.statusCode !== 200) throw new Error(`${c.name}: ${answer.statusCode} ${answer.body}`);
      const bytes = answer.rawPayload;
      bare.route({ method: c.method, url: c.path, handler: async (_request, reply) => reply.type('application/json').send(bytes) });
    }
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

    const results: ApiBenchResult[] = [];
    for (const c of calls) {
      const options = { method: c.method, headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' }, body: c.body };
      const app = await load(base + c.path, options);
      const bareResult = await load(bareBase + c.path, options);
      results.push({
        database,
        call: c.name,
        app,
        bare: bareResult,
        rpsRatio: app.requestsPerSecond / bareResult.requestsPerSecond,
        p99Ratio: app.p99Ms / Math.max(1, bareResult.p99Ms),
      });
    }
    return results;
  } finally {
    await bare.close();
    await built.app.close();
    if (schema) await admin(`drop schema "${schema}" cascade`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
