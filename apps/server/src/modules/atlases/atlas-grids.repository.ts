import type { Kysely, Selectable } from 'kysely';
import type { AtlasGrid } from '@reskin/contract';
import { nowIso } from '../../db/database';
import type { AtlasGridsTable, Database } from '../../db/schema';

export type AtlasGridRow = Selectable<AtlasGridsTable>;

/** The uniform grids declared on a game's images (decision 0028 "Grids"); one per image. */
export class AtlasGridsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The game's grids, in file order. */
  async list(gameId: number): Promise<AtlasGridRow[]> {
    return this.db
      .selectFrom('atlasGrids')
      .selectAll()
      .where('gameId', '=', gameId)
      .orderBy('fileId')
      .execute();
  }

  /** Declares the image's grid, or changes the one it has. */
  async save(gameId: number, fileId: number, grid: AtlasGrid): Promise<void> {
    const now = nowIso();
    const values = {
      frameWidth: grid.frameWidth,
      frameHeight: grid.frameHeight,
      margin: grid.margin,
      spacing: grid.spacing,
    };
    await this.db
      .insertInto('atlasGrids')
      .values({ gameId, fileId, ...values, createdAt: now, updatedAt: now })
      .onConflict((conflict) =>
        conflict.columns(['gameId', 'fileId']).doUpdateSet({ ...values, updatedAt: now }),
      )
      .execute();
  }

  /** Removes the image's grid; false when it had none. */
  async remove(gameId: number, fileId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('atlasGrids')
      .where('gameId', '=', gameId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Whether any version of the game has replaced frames in the image (a grid they were cut by must stay). */
  async framesReplaced(gameId: number, fileId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('versionFrames')
      .innerJoin('gameVersions', 'gameVersions.id', 'versionFrames.gameVersionId')
      .select('versionFrames.gameVersionId')
      .where('gameVersions.gameId', '=', gameId)
      .where('versionFrames.fileId', '=', fileId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
