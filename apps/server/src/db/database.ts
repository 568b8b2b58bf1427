import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider, Migrator } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './schema';
import * as initial from './migrations/0001-initial';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema in use when one was configured (tests), else undefined. */
  schema?: string;
}

// PostgreSQL answers bigint (count, bigint columns) as strings; our counts and sizes fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** SQLite in DATA_DIR by default; PostgreSQL when DATABASE_URL is set (DESIGN.md "Running"). */
export function createDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Db {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      // Tests give each file its own schema; production uses the connection's default search_path.
      ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
    });
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      schema: config.databaseSchema,
    };
  }
  const file = new SqliteDatabase(join(config.dataDir, 'reskin.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), dialect: 'sqlite' };
}

/** The migrations in order; each gets the dialect so it can pick column types. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': { up: (db) => initial.up(db, dialect) },
  };
}

/** Runs every pending migration; throws (and so stops the start) if one fails. */
export async function migrateToLatest({ db, dialect, schema }: Db): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // With several schemas in one database (parallel tests), the migrator must look for its own tables in
  // this schema only, or it takes another schema's for its own.
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Now as the database stores it (ISO 8601, UTC). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** A stored timestamp (ISO text on SQLite, Date from PostgreSQL) as ISO 8601. */
export function toIso(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
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

/**
 * True for a PostgreSQL "data exception" (SQLSTATE class 22: a value out of range or of the wrong form, such as
 * an id beyond 32 bits in a path). Such a value came from the request and passed its schema; it is the
 * caller's error (400), not the server's. SQLite stores such values without complaint.
 */
export function isDataException(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && error.code.startsWith('22');
}
