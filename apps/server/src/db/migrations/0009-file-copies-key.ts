import { sql, type Kysely } from 'kysely';

/**
 * Live games (decision 0024): per game file the storage key whose skeleton and watermarked copies exist
 * (null: none yet). The play origin serves the copies of this key, so a replaced file keeps its previous copies
 * until the incremental generation has made the new ones. Backfill: the images of a Ready game had their copies
 * made by its last generation (an image: a pixel size recorded, contract fileKindOf).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gameFiles').addColumn('copiesKey', 'text').execute();
  await sql`update ${sql.table('gameFiles')} set ${sql.ref('copiesKey')} = ${sql.ref('storageKey')}
    where ${sql.ref('width')} is not null
      and ${sql.ref('gameId')} in (select ${sql.ref('id')} from ${sql.table('games')} where ${sql.ref('gameStatusTypeId')} = 2)`.execute(
    db,
  );
}
