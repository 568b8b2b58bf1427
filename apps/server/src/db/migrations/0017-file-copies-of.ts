import { sql, type Kysely } from 'kysely';

/**
 * Copies made again get new keys (decision 0046): `copiesOf` is the content (storage key) a file's copies were made
 * from, which `copiesKey` meant until now; `copiesKey` becomes the key the copies are named after (variants.ts
 * variantKey), the content's own key the first time, a new one each time Gen. makes them again. Backfill: every
 * file's copies so far are named after the content they were made from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gameFiles').addColumn('copiesOf', 'text').execute();
  await sql`update ${sql.table('gameFiles')} set ${sql.ref('copiesOf')} = ${sql.ref('copiesKey')}`.execute(
    db,
  );
}
