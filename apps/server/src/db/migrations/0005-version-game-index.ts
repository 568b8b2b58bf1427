import type { Kysely } from 'kysely';

/**
 * An index on gameVersions.gameId: POST /game-versions/filter by game, a game's versions on its pages,
 * and a game's delete (whose cascade finds its versions) read the versions of one game; the (userId, gameId)
 * index cannot serve a query without the user. test/indexes.test.ts pins every index the lists use with EXPLAIN.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('gameVersions_game_index').on('gameVersions').column('gameId').execute();
}
