import type { Kysely } from 'kysely';

/**
 * Which files plays really load (decision 0023): per game file (never per person) how many requests
 * the play origin answered for it, how many of them came in the first seconds of a play, and when it was first
 * seen. A file's row goes with the file (and so with its game).
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('fileUsage')
    .addColumn('gameId', 'integer', (c) => c.notNull())
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('loads', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('startLoads', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('firstSeenAt', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('fileUsage_pk', ['gameId', 'fileId'])
    .addForeignKeyConstraint(
      'fileUsage_file_fk',
      ['gameId', 'fileId'],
      'gameFiles',
      ['gameId', 'fileId'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
}
