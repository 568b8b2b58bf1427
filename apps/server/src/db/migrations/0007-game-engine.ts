import type { Kysely } from 'kysely';

/**
 * The engine a game's files were built with: a name from the contract's gameEngines, or null when
 * none was recognised. Computed from the game's files whenever they change (modules/games/game-engine.ts); a
 * game uploaded before this migration keeps null until its files next change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('games').addColumn('engine', 'text').execute();
}
