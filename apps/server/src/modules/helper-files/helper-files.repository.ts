import type { Kysely, Selectable } from 'kysely';
import { nowIso, type Dialect } from '../../db/database';
import type { Database, HelperFilesTable } from '../../db/schema';

export type HelperFileRow = Selectable<HelperFilesTable>;

/** The helper files of games (PSD sources, fonts, guides): downloads for artists, never served to the frame. */
export class HelperFilesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  list(gameId: number): Promise<HelperFileRow[]> {
    return this.db
      .selectFrom('helperFiles')
      .selectAll()
      .where('gameId', '=', gameId)
      .orderBy('path')
      .execute();
  }

  find(gameId: number, id: number): Promise<HelperFileRow | undefined> {
    return this.db
      .selectFrom('helperFiles')
      .selectAll()
      .where('gameId', '=', gameId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Records the files of one upload in one transaction; a file with an existing path replaces that one. The
   * game row is locked first (PostgreSQL; SQLite runs one write transaction at a time), so a delete of the game
   * either waits for this and removes these files too, or went first. Answers the storage keys of the replaced
   * files, or undefined when the game is gone.
   */
  async saveAll(
    gameId: number,
    files: Omit<HelperFileRow, 'id' | 'gameId' | 'createdAt'>[],
  ): Promise<string[] | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const game = trx.selectFrom('games').select('id').where('id', '=', gameId);
      if (!(await (this.dialect === 'postgres' ? game.forUpdate() : game).executeTakeFirst()))
        return undefined;
      const replaced: string[] = [];
      for (const file of files) {
        const values = { ...file, gameId, createdAt: nowIso() };
        const existing = await trx
          .selectFrom('helperFiles')
          .select(['id', 'storageKey'])
          .where('gameId', '=', gameId)
          .where('path', '=', file.path)
          .executeTakeFirst();
        if (existing) {
          await trx.updateTable('helperFiles').set(values).where('id', '=', existing.id).execute();
          replaced.push(existing.storageKey);
        } else {
          await trx.insertInto('helperFiles').values(values).execute();
        }
      }
      return replaced;
    });
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('helperFiles').where('id', '=', id).execute();
  }
}
