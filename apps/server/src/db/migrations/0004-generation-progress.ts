import type { Kysely } from 'kysely';

/**
 * A generation's progress (decision 0016): images done and the images in all, shown in the games list
 * while a game is Generating, and where a job taken over by another server goes on from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('games').addColumn('generationDone', 'integer').execute();
  await db.schema.alterTable('games').addColumn('generationTotal', 'integer').execute();
}
