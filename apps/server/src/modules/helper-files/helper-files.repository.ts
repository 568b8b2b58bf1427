import type { Kysely, Selectable } from 'kysely';
import { nowIso } from '../../db/database';
import type { Database, HelperFilesTable } from '../../db/schema';

export type HelperFileRow = Selectable<HelperFilesTable>;

/** The helper files of games (PSD sources, fonts, guides): downloads for artists, never served to the frame. */
export class HelperFilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(gameId: number): Promise<HelperFileRow[]> {
    return this.db.selectFrom('helperFiles').selectAll().where('gameId', '=', gameId).orderBy('path').execute();
  }

  find(gameId: number, id: number): Promise<HelperFileRow | undefined> {
    return this.db.selectFrom('helperFiles').selectAll().where('gameId', '=', gameId).where('id', '=', id).executeTakeFirst();
  }

  findByPath(gameId: number, path: string): Promise<HelperFileRow | undefined> {
    return this.db.selectFrom('helperFiles').selectAll().where('gameId', '=', gameId).where('path', '=', path).executeTakeFirst();
  }

  /** Adds a helper file, or replaces the content of the one with the same path; answers the id. */
  async save(file: Omit<HelperFileRow, 'id' | 'createdAt'>): Promise<number> {
    const existing = await this.findByPath(file.gameId, file.path);
    if (existing) {
      await this.db.updateTable('helperFiles').set({ ...file, createdAt: nowIso() }).where('id', '=', existing.id).execute();
      return existing.id;
    }
    const row = await this.db.insertInto('helperFiles').values({ ...file, createdAt: nowIso() }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('helperFiles').where('id', '=', id).execute();
  }
}
