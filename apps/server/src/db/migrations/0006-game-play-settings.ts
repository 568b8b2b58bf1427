import type { Kysely } from 'kysely';

/**
 * A game's play settings (decision 0022): how its pre-compressed files are sent and whether it is served
 * cross-origin isolated, each the admin's choice (`auto` by default) beside what detection at upload decided and
 * why. Games uploaded before keep today's behaviour until their files change: pre-compressed files encoded, not
 * isolated.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const games = () => db.schema.alterTable('games');
  await games()
    .addColumn('precompressed', 'varchar(16)', (col) => col.notNull().defaultTo('auto'))
    .execute();
  await games()
    .addColumn('precompressedDecided', 'varchar(16)', (col) => col.notNull().defaultTo('encoded'))
    .execute();
  await games()
    .addColumn('precompressedReason', 'text', (col) =>
      col
        .notNull()
        .defaultTo(
          'Uploaded before detection existed: served encoded, as before. Upload a file again to detect.',
        ),
    )
    .execute();
  await games()
    .addColumn('isolated', 'varchar(16)', (col) => col.notNull().defaultTo('auto'))
    .execute();
  await games()
    .addColumn('isolatedDecided', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await games()
    .addColumn('isolatedReason', 'text', (col) =>
      col
        .notNull()
        .defaultTo(
          'Uploaded before detection existed: not isolated, as before. Upload a file again to detect.',
        ),
    )
    .execute();
}
