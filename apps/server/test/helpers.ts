import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  RoleType,
  limits,
  type CreateGameBody,
  type Game,
  type RoleTypeId,
  type SignupBody,
  type User,
} from '@reskin/contract';
import { buildApp } from '../src/app';
import type { Config } from '../src/config';
import type { Db } from '../src/db/database';
import type { LogDestination } from '../src/lib/logging';
import type { GameGeneration } from '../src/modules/games/game-generation';
import type { PlayUsage } from '../src/play/play-usage';
import type { MailService } from '../src/modules/mail/mail.service';
import type { InboxService } from '../src/modules/inbox/inbox.service';
import { UsersRepository } from '../src/modules/users/users.repository';

/** Which database this run of the suite uses: `TEST_DB=postgres` (scripts/test.mjs sets it) or SQLite. */
export const testDb: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestApp {
  app: FastifyInstance;
  /** The play origin app (DESIGN.md "Play"). */
  playApp: FastifyInstance;
  database: Db;
  /** The background generation jobs: `await t.generation.idle()` waits for every running one. */
  generation: GameGeneration;
  /** The play origin's record of loaded files: `await t.playUsage?.flush()` writes its counts. */
  playUsage: PlayUsage | undefined;
  /** Mail (decision 0035): `await t.mail.tick()` runs a round of the outbox worker, `settled()` waits for queued work. */
  mail: MailService;
  /** The inbox: tests register `inbox.onEventsAdded` listeners. */
  inbox: InboxService;
  config: Config;
  /** The PostgreSQL schema of this app's database (undefined on SQLite). */
  schema: string | undefined;
  /** Closes the app and removes its data dir and, on PostgreSQL, its schema (not when it reused another's). */
  close: () => Promise<void>;
}

/** The database of another TestApp, to start a second app on (see createTestApp's `reuse`). */
export interface ReusedDatabase {
  dataDir: string;
  schema: string | undefined;
}

/**
 * The real app on a real, empty database of its own: a fresh SQLite file in a temporary DATA_DIR, or a
 * fresh PostgreSQL schema dropped again by close(). Nothing is seeded unless asked. A `databaseUrl` in the
 * overrides (a private cluster: test/support/private-postgres.ts) is used as it is, without a schema of its own.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  reuse?: ReusedDatabase,
  /** Where its log lines go (with a `logLevel` override): a test that reads what the server logs captures them here. */
  { logDestination }: { logDestination?: LogDestination } = {},
): Promise<TestApp> {
  const dataDir = reuse ? reuse.dataDir : mkdtempSync(join(tmpdir(), 'reskin-test-'));
  const ownSchema = testDb === 'postgres' && overrides.databaseUrl === undefined;
  // Named after the run so that test/global-setup.ts drops it once every file has finished.
  const schema = reuse
    ? reuse.schema
    : ownSchema
      ? `test_${process.env.RESKIN_TEST_RUN ?? 'solo'}_${randomBytes(6).toString('hex')}`
      : undefined;
  if (schema && !reuse) await adminQuery(`create schema "${schema}"`);
  const config: Config = {
    nodeEnv: 'test',
    port: 0,
    host: '127.0.0.1',
    playPort: 0,
    playOrigin: 'http://play.test',
    dataDir,
    databaseUrl: schema ? testDatabaseUrl : undefined,
    databaseSchema: schema,
    // The test database is up or the run fails at once (scripts/test.mjs checks it before the suite).
    databaseStartupTimeoutMs: 0,
    jwtSecret: 'test-secret-0123456789abcdef0123456789',
    seedDemo: false,
    admin: undefined,
    productName: 'Reskin Studio',
    maxFileSizeBytes: 50 * 1024 * 1024,
    authRateLimitMax: 10_000,
    drainTimeoutMs: 10_000,
    // Revocation on the play origin shows at once (revocation.test.ts sets a cache to test it).
    playAccessCacheMs: 0,
    // Changed files show at once too (play-cache.test.ts sets a cache to test it).
    playFileCacheMs: 0,
    playBodyCacheBytes: overrides.playBodyCacheBytes ?? 16 * 1024 * 1024,
    // Loads are written when a test flushes them (t.playUsage.flush()) or the app closes, not on a timer.
    playUsage: { enabled: true, startWindowMs: 10_000, flushMs: 300_000 },
    playAccelRedirect: undefined,
    logLevel: 'silent',
    trustProxy: false,
    webDistDir: join(dataDir, 'no-web'),
    legalTexts: {},
    storage: { kind: 'local', dir: join(dataDir, 'files') },
    minFreeSpace: { percent: 5, bytes: 1024 ** 3 },
    redisUrl: undefined,
    generationLeaseMs: 60_000,
    metricsToken: undefined,
    versionHistoryLimit: 10,
    // The real posting throttles (decision 0044); a test that posts more sets its own.
    postingLimits: { notes: limits.posting.notes, finishes: limits.posting.finishes },
    ...overrides,
  };
  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    built = await buildApp(config, { logDestination });
  } catch (error) {
    // A failed start must not leave its data dir behind (its schema goes at the end of the run).
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { app, playApp, database, generation, playUsage, mail, inbox } = built;
  // Tests see the app as it is once the start-up's background recomposition of sheets is done.
  await built.sheetsRecovered;
  return {
    app,
    playApp,
    database,
    generation,
    playUsage,
    mail,
    inbox,
    config,
    schema,
    close: async () => {
      await app.close();
      // A second app on another's database only closes; the first one removes the data dir. The schema stays
      // until the run ends (test/global-setup.ts).
      if (reuse) return;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

let counter = 0;

/** Valid registration data, unique per call. */
export function signupBody(overrides: Partial<SignupBody> = {}): SignupBody {
  counter += 1;
  const username = overrides.username ?? `user_${counter}_${randomBytes(3).toString('hex')}`;
  return {
    username,
    email: `${username.toLowerCase()}@example.com`,
    password: 'Passw0rd-test',
    firstName: 'Testy',
    lastName: 'Tester',
    phone: '5551234567',
    dataProtectionRegulationVersion: 1,
    ...overrides,
  };
}

export interface TestUser extends User {
  password: string;
  token: string;
}

/** Signs a user up through the API, gives it a role (directly in the database) and logs it in. */
export async function createUser(t: TestApp, role: RoleTypeId = RoleType.User): Promise<TestUser> {
  const body = signupBody();
  const signup = await t.app.inject({ method: 'POST', url: '/api/user/signup', payload: body });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
  const user = signup.json<User>();
  if (role !== user.roleTypeId)
    await new UsersRepository(t.database.db).update(user.id, { roleTypeId: role });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { email: body.email, password: body.password },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  return { ...user, roleTypeId: role, password: body.password, token: login.json<{ token: string }>().token };
}

/** app.inject with a bearer token (API clients send no XSRF cookie, so the double submit does not apply). */
export function call(
  t: TestApp,
  method: NonNullable<InjectOptions['method']>,
  url: string,
  options: { token?: string; payload?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    ...(options.payload !== undefined ? { payload: options.payload as InjectOptions['payload'] } : {}),
  });
}

/** The error envelope of a failed response. */
export function errorOf(response: LightMyRequestResponse) {
  return response.json<{
    error: {
      statusCode: number;
      name: string;
      message: string;
      code?: string;
      details?: { path: string; code: string; message: string }[];
    };
  }>().error;
}

/** POST /api/user/login with these credentials (the response, whatever it is). */
export function login(t: TestApp, email: string, password: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/api/user/login', payload: { email, password } });
}

/** POST /api/games with this body as the given user (an admin); the game, after checking it was created. */
export async function createGame(t: TestApp, token: string, body: CreateGameBody): Promise<Game> {
  const response = await call(t, 'POST', '/api/games', { token, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Game>();
}

/**
 * A multipart body of files, each preceded by its fullPath field (as the admin screen sends them), each file
 * part named after the last segment of its path. `filenameField` adds the admin screen's `filename` field too.
 */
export function filesForm(
  files: { path: string; content: Buffer | string }[],
  { filenameField = false }: { filenameField?: boolean } = {},
): FormData {
  const body = new FormData();
  for (const file of files) {
    body.append('fullPath', file.path);
    if (filenameField) body.append('filename', file.path.split('/').pop() ?? file.path);
    body.append('file', new Blob([file.content]), file.path.split('/').pop());
  }
  return body;
}

/** Every file under the app's DATA_DIR/files, writes in progress (.partial) included, as storage keys, sorted. */
export function storedKeys(t: TestApp): string[] {
  const root = join(t.config.dataDir, 'files');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}
