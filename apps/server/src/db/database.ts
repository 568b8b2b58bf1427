import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Migration,
  type MigrationProvider,
  Migrator,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { makePrivateFileSync } from '../lib/private-files';
import type { Database } from './schema';
import { withNamedStatements } from './named-statements';
import * as initial from './migrations/0001-initial';
import * as uniqueUsernames from './migrations/0002-unique-usernames-ignoring-case';
import * as tokenVersion from './migrations/0003-user-token-version';
import * as generationProgress from './migrations/0004-generation-progress';
import * as versionGameIndex from './migrations/0005-version-game-index';
import * as gamePlaySettings from './migrations/0006-game-play-settings';
import * as gameEngine from './migrations/0007-game-engine';
import * as fileUsage from './migrations/0008-file-usage';
import * as fileCopiesKey from './migrations/0009-file-copies-key';
import * as oneAssignmentPerJob from './migrations/0010-one-assignment-per-job';
import * as versionFrames from './migrations/0011-version-frames';
import * as atlasGrids from './migrations/0012-atlas-grids';
import * as inboxEvents from './migrations/0013-inbox-events';
import * as versionFileHistory from './migrations/0015-version-file-history';
import * as mail from './migrations/0016-mail';
import * as fileCopiesOf from './migrations/0017-file-copies-of';
import * as markedSheets from './migrations/0020-marked-sheets';
import * as openNotesIndex from './migrations/0021-open-notes-index';
import * as reviewLoop from './migrations/0014-review-loop';
import * as resetLinkTokenVersion from './migrations/0018-reset-link-token-version';
import * as mailPriority from './migrations/0019-mail-priority-and-coalescing';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema in use when one was configured (tests), else undefined. */
  schema?: string;
}

/**
 * The PostgreSQL driver, loaded only when DATABASE_URL names PostgreSQL (a server on SQLite never
 * loads it, which keeps its idle memory low). Until then no error can be one of pg's.
 */
let postgresDriver: typeof pg | undefined;

export async function loadPostgresDriver(): Promise<typeof pg> {
  if (!postgresDriver) {
    const driver = (await import('pg')).default;
    // PostgreSQL answers bigint (count, bigint columns) as strings; our counts and sizes fit a JS number.
    driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number(value));
    postgresDriver = driver;
  }
  return postgresDriver;
}

/** True for an error PostgreSQL answered (pg's DatabaseError, with its SQLSTATE code). */
export function isPostgresError(error: unknown): error is pg.DatabaseError {
  return postgresDriver !== undefined && error instanceof postgresDriver.DatabaseError;
}

/** How long a query waits for a PostgreSQL connection before it fails (and its request answers 503). */
const connectTimeoutMs = 5000;

/**
 * SQLite in DATA_DIR by default; PostgreSQL when DATABASE_URL is set (DESIGN.md "Running"). The PostgreSQL pool
 * outlives a database restart or failover: lost connections are dropped and new ones opened on demand.
 */
export async function createDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
  log: FastifyBaseLogger,
): Promise<Db> {
  if (config.databaseUrl) {
    const pg = await loadPostgresDriver();
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      // While the database is unreachable a query fails after this long instead of waiting for ever.
      connectionTimeoutMillis: connectTimeoutMs,
      // TCP keep-alive notices idle connections to a server that vanished without closing them.
      keepAlive: true,
      // Tests give each file its own schema; production uses the connection's default search_path.
      ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
    });
    // An idle connection that breaks (a restart ends every session) is reported here; without a listener Node
    // throws the 'error' event and the process stops. The pool has already dropped the connection.
    pool.on('error', (error) =>
      log.warn({ err: error }, 'an idle database connection was lost; the pool opens new ones'),
    );
    // A connection lent to a transaction reports its loss the same way, on the client; the transaction's next
    // query fails with it (and its request answers 503), so the event itself needs no handling.
    pool.on('connect', (client) => client.on('error', () => {}));
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) }),
      dialect: 'postgres',
      schema: config.databaseSchema,
    };
  }
  // Created (or kept) readable by the server's user only; SQLite gives its -wal and -shm files the same mode.
  const path = join(config.dataDir, 'reskin.sqlite');
  makePrivateFileSync(path);
  const file = new SqliteDatabase(path);
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) }),
    dialect: 'sqlite',
  };
}

/** The rollback of a transaction SQLite has already rolled back: a statement that changes nothing. */
const nothingToRollBack: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/** Prepared statements kept per SQL text; the least recently used go first. */
const cachedStatements = 500;

/**
 * The SQLite file as Kysely's dialect sees it, with its prepared statements kept by SQL text: Kysely
 * prepares every query anew, which was 13% of a read's time. A statement runs to its end synchronously (the app
 * never streams a query), so one statement serves every request that sends the same SQL.
 */
function withStatementCache(file: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => file.close(),
    prepare: (text: string) => {
      // SQLite rolls a transaction back by itself when a statement of it fails with SQLITE_FULL (or an I/O error):
      // Kysely's rollback then failed with "no transaction is active", and that error replaced the real one (a
      // delete on a full disk answered 500 instead of 507). With no transaction open it does nothing.
      if (text === 'rollback' && !file.inTransaction) return nothingToRollBack;
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        statement = file.prepare(text);
        if (statements.size >= cachedStatements) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/** Back-off between attempts while the database is unreachable: 0.5 s, doubling up to 5 s. */
const firstRetryDelayMs = 500;
const maxRetryDelayMs = 5000;

/**
 * Runs `work` until it succeeds, retrying with back-off while it fails because the database is unreachable
 * (isDatabaseUnavailable), for at most `timeoutMs`. Any other error, or the last one, is thrown.
 */
export async function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  timeoutMs: number,
  onRetry: (error: unknown, delayMs: number) => void,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = firstRetryDelayMs; ; delayMs = Math.min(delayMs * 2, maxRetryDelayMs)) {
    try {
      return await work();
    } catch (error) {
      const left = deadline - Date.now();
      if (!isDatabaseUnavailable(error) || left <= 0) throw error;
      const waitMs = Math.min(delayMs, left);
      onRetry(error, waitMs);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/**
 * At start, waits for PostgreSQL to answer (it may still be starting, or failing over) for up to
 * `databaseStartupTimeoutMs`, then gives up with one readable line that names the database but not its password.
 * SQLite is a local file: nothing to wait for.
 */
export async function waitForDatabase(
  { db, dialect }: Db,
  config: Pick<Config, 'databaseUrl' | 'databaseStartupTimeoutMs'>,
  log: FastifyBaseLogger,
): Promise<void> {
  if (dialect === 'sqlite') return;
  const where = displayUrl(config.databaseUrl ?? '');
  try {
    await retryWhileUnavailable(
      () => sql`select 1`.execute(db),
      config.databaseStartupTimeoutMs,
      (error, delayMs) =>
        log.warn(
          `the database at ${where} is unreachable (${oneLine(error)}); trying again in ${delayMs / 1000} s`,
        ),
    );
  } catch (error) {
    const reason = isDatabaseUnavailable(error)
      ? `Cannot reach the database at ${where} after ${config.databaseStartupTimeoutMs / 1000} s`
      : `Cannot use the database at ${where}`;
    throw new Error(`${reason}: ${oneLine(error)}`, { cause: error });
  }
}

/** A database URL without its password, parameters or fragment, for messages and logs. */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/** An error as one line: its message, or its code when it has no message (Node's AggregateError of a refused connect). */
function oneLine(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  return (message || code || 'unknown error').replace(/\s+/g, ' ').trim();
}

/** The migrations in order; each gets the dialect so it can pick column types. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': { up: (db) => initial.up(db, dialect) },
    '0002-unique-usernames-ignoring-case': { up: (db) => uniqueUsernames.up(db) },
    '0003-user-token-version': { up: (db) => tokenVersion.up(db) },
    '0004-generation-progress': { up: (db) => generationProgress.up(db) },
    '0005-version-game-index': { up: (db) => versionGameIndex.up(db) },
    '0006-game-play-settings': { up: (db) => gamePlaySettings.up(db) },
    '0007-game-engine': { up: (db) => gameEngine.up(db) },
    '0008-file-usage': { up: (db) => fileUsage.up(db, dialect) },
    '0009-file-copies-key': { up: (db) => fileCopiesKey.up(db) },
    '0010-one-assignment-per-job': { up: (db) => oneAssignmentPerJob.up(db) },
    '0011-version-frames': { up: (db) => versionFrames.up(db, dialect) },
    '0012-atlas-grids': { up: (db) => atlasGrids.up(db, dialect) },
    '0013-inbox-events': { up: (db) => inboxEvents.up(db, dialect) },
    '0015-version-file-history': { up: (db) => versionFileHistory.up(db, dialect) },
    '0016-mail': { up: (db) => mail.up(db, dialect) },
    '0014-review-loop': { up: (db) => reviewLoop.up(db, dialect) },
    '0017-file-copies-of': { up: (db) => fileCopiesOf.up(db) },
    '0018-reset-link-token-version': { up: (db) => resetLinkTokenVersion.up(db) },
    '0019-mail-priority-and-coalescing': { up: (db) => mailPriority.up(db) },
    '0020-marked-sheets': { up: (db) => markedSheets.up(db) },
    '0021-open-notes-index': { up: (db) => openNotesIndex.up(db) },
  };
}

/**
 * The advisory lock between migrations into a schema of their own (tests: `schema` is set) and the dropping of
 * such schemas (test/global-setup.ts, at the end of a run). Kysely's migrator reads the catalogue of every schema,
 * and a schema another run drops meanwhile fails it ("schema test_… does not exist"): migrations hold the lock
 * shared, a drop holds it alone.
 */
export const schemaDropLock = 7_314_250_028;

async function whileNoSchemaIsDropped<T>(db: Kysely<Database>, run: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock_shared(${schemaDropLock})`.execute(connection);
    try {
      return await run();
    } finally {
      await sql`select pg_advisory_unlock_shared(${schemaDropLock})`.execute(connection);
    }
  });
}

/** Runs every pending migration; throws (and so stops the start) if one fails. */
export async function migrateToLatest({ db, dialect, schema }: Db): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // With several schemas in one database (parallel tests), the migrator must look for its own tables in
  // this schema only, or it takes another schema's for its own.
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } =
    schema && dialect === 'postgres'
      ? await whileNoSchemaIsDropped(db, () => migrator.migrateToLatest())
      : await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const which = failed ? `Migration ${failed.migrationName}` : 'The database migrations';
    throw new Error(`${which} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** How often a long-running server asks SQLite to bring its query planner's statistics up to date. */
const statisticsEveryMs = 60 * 60 * 1000;

/**
 * SQLite's planner statistics, kept as SQLite recommends for a long-lived connection (sqlite.org/lang_analyze.html):
 * `PRAGMA optimize=0x10002` once the database is open and migrated (it analyses the tables whose statistics are
 * missing or stale, in a bounded time), then `PRAGMA optimize` every hour, which analyses again the tables that
 * have grown or shrunk much since. Without statistics SQLite guessed a plan for counting open notes that read every
 * note (decision 0054). PostgreSQL's autovacuum keeps its own. Returns the stop, for the server's close.
 */
export async function keepStatistics({ db, dialect }: Db, log: FastifyBaseLogger): Promise<() => void> {
  if (dialect !== 'sqlite') return () => {};
  await sql`pragma optimize=0x10002`.execute(db);
  const timer = setInterval(() => {
    sql`pragma optimize`
      .execute(db)
      .catch((error: unknown) =>
        log.warn({ err: error }, 'SQLite could not update its statistics; the next hour tries again'),
      );
  }, statisticsEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Now as the database stores it (ISO 8601, UTC). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** What Date.prototype.toISOString writes (years 0000 to 9999). */
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A stored timestamp (ISO text on SQLite, Date from PostgreSQL) as ISO 8601. */
export function toIso(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  // SQLite keeps the text nowIso() wrote: already the answer (parsing and formatting it was 3% of a list read).
  return isoTimestamp.test(value) ? value : new Date(value).toISOString();
}

/** `like` that ignores case on both databases (SQLite's like already does for ASCII). */
export function likeOperator(dialect: Dialect): 'like' | 'ilike' {
  return dialect === 'postgres' ? 'ilike' : 'like';
}

export { sql };

/** True for a unique-constraint violation on either database (two requests raced for the same value). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** True for a foreign-key violation on either database (a row it names was deleted meanwhile). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * True for a PostgreSQL "data exception" (SQLSTATE class 22: a value out of range or of the wrong form, such as
 * an id beyond 32 bits in a path). Such a value came from the request and passed its schema; it is the
 * caller's error (400), not the server's. SQLite stores such values without complaint.
 */
export function isDataException(error: unknown): boolean {
  return isPostgresError(error) && typeof error.code === 'string' && error.code.startsWith('22');
}

/** Node's codes for a socket that could not connect, or lost its peer (failed system calls on the database's socket). */
const unreachableSocketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * pg's own errors for a connection that could not be made or was lost; they carry no code, only these messages.
 * "Connection terminated" covers "... unexpectedly" and "... due to connection timeout".
 */
const unreachableMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

/**
 * True when the database could not be reached or went away: a refused, reset or timed-out connection, a
 * PostgreSQL "connection exception" (SQLSTATE class 08), or a server shutting down, crashed or still starting
 * (57P01, 57P02, 57P03). Such a request is answered 503 (DATABASE_UNAVAILABLE) and works again once the
 * database is back; the pool reconnects by itself.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A host name with several addresses (localhost: ::1 and 127.0.0.1) fails with one error per address.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  if (isPostgresError(error)) {
    const code = error.code ?? '';
    return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
  }
  // Only a failed system call (connect, read, write, getaddrinfo): an HTTP client that hangs up mid-upload
  // also gives ECONNRESET, without one.
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code && syscall && unreachableSocketCodes.has(code)) return true;
  return unreachableMessages.some((message) => error.message.startsWith(message));
}
