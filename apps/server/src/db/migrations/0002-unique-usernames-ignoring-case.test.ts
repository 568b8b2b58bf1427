import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import * as initial from './0001-initial';
import * as uniqueUsernames from './0002-unique-usernames-ignoring-case';

let emails = 0;

/** The users rows migration 0001 needs, with these usernames (and emails of their own). */
function insertUsers(db: Kysely<unknown>, usernames: string[]) {
  return sql`insert into users (username, email, passwordHash, firstName, lastName, phone) values ${sql.join(
    usernames.map(
      (name) => sql`(${name}, ${`user${++emails}@example.com`}, 'x', 'First', 'Last', '5551234567')`,
    ),
  )}`.execute(db);
}

const indexes = async (db: Kysely<unknown>) =>
  (
    await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index' and tbl_name = 'users'`.execute(db)
  ).rows.map((row) => row.name);

describe('migration 0002: usernames unique ignoring case', () => {
  let db: Kysely<unknown>;
  afterEach(async () => db?.destroy());

  async function migratedTo0001(): Promise<Kysely<unknown>> {
    db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    await initial.up(db, 'sqlite');
    return db;
  }

  it('adds the unique index on lower(username), which refuses Admin beside admin', async () => {
    await migratedTo0001();
    await insertUsers(db, ['admin', 'other']);
    await uniqueUsernames.up(db);
    expect(await indexes(db)).toContain('users_username_lower_unique');
    await expect(insertUsers(db, ['Admin'])).rejects.toThrow(/users_username_lower_unique/);
  });

  it('adds nothing, and does not fail, when two usernames already differ only in case', async () => {
    await migratedTo0001();
    await insertUsers(db, ['admin', 'Admin']);
    await uniqueUsernames.up(db);
    expect(await indexes(db)).not.toContain('users_username_lower_unique');
  });
});
