import { sql, type Kysely } from 'kysely';

/**
 * Usernames are unique ignoring case: a unique index on lower("username"), an expression index both
 * SQLite (3.9+) and PostgreSQL support. Emails need none: they are stored lower-cased under their own unique
 * constraint. A database that already holds two usernames differing only in case keeps working without the
 * index (the service still refuses new look-alikes); docs/operations.md tells how to rename one and add it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const duplicates = await sql<{ name: string }>`
    select lower(${sql.ref('username')}) as name from ${sql.table('users')}
    group by lower(${sql.ref('username')}) having count(*) > 1`.execute(db);
  if (duplicates.rows.length > 0) return;
  await db.schema
    .createIndex('users_username_lower_unique')
    .on('users')
    .unique()
    .expression(sql`lower(${sql.ref('username')})`)
    .execute();
}
