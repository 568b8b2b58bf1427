import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/helpers';
import { withNamedStatements } from './named-statements';

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const reason = 'runs in the PostgreSQL run of the suite only (TEST_DB=postgres)';

interface Tables {
  cards: { id: number; name: string; size?: number };
}

describe.skipIf(testDb !== 'postgres')(`named prepared statements on PostgreSQL (${reason})`, () => {
  const schema = `named_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let pool: pg.Pool;
  let db: Kysely<Tables>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    await admin.query(`create table "${schema}".cards (id int primary key, name text not null)`);
    await admin.query(`insert into "${schema}".cards values (1, 'one'), (2, 'two')`);
    // One connection, so the statements it has prepared can be read back on it.
    pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${schema}` });
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  });

  afterAll(async () => {
    await db?.destroy();
    await admin?.query(`drop schema if exists "${schema}" cascade`);
    await admin?.end();
  });

  const prepared = async () =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements where statement like 'select * from "cards"%'`.execute(
        db,
      )
    ).rows.map((row) => row.statement);
  const cardNamed = (id: number) => db.selectFrom('cards').selectAll().where('id', '=', id).execute();

  it('prepares a query on its second use and runs it by name with any values', async () => {
    expect(await cardNamed(1)).toEqual([{ id: 1, name: 'one' }]);
    expect(await prepared()).toEqual([]);
    expect(await cardNamed(2)).toEqual([{ id: 2, name: 'two' }]);
    const statements = await prepared();
    expect(statements).toEqual(['select * from "cards" where "id" = $1']);
    expect(await cardNamed(1)).toEqual([{ id: 1, name: 'one' }]);
    expect(await cardNamed(3)).toEqual([]);
    // Still the one statement: the same text runs by its name.
    expect(await prepared()).toEqual(statements);
  });

  it('prepares the text again when a migration changed its result columns, outside and inside a transaction', async () => {
    await cardNamed(1);
    await cardNamed(1);
    await admin.query(`alter table "${schema}".cards add column size int not null default 0`);
    // PostgreSQL refuses the old statement (its result columns changed); the query runs again under a new name.
    expect(await cardNamed(1)).toEqual([{ id: 1, name: 'one', size: 0 }]);
    await admin.query(`alter table "${schema}".cards add column colour text`);
    // In a transaction the refusal has aborted it: the transaction fails, and the next one runs the new statement.
    await expect(
      db
        .transaction()
        .execute(async (trx) => trx.selectFrom('cards').selectAll().where('id', '=', 2).execute()),
    ).rejects.toThrow(/cached plan must not change result type/);
    expect(
      await db
        .transaction()
        .execute(async (trx) => trx.selectFrom('cards').selectAll().where('id', '=', 2).execute()),
    ).toEqual([{ id: 2, name: 'two', size: 0, colour: null }]);
  });
});
