import { type Kysely } from 'kysely';
import { toIso } from '../../db/database';
import type { Database } from '../../db/schema';
import type { GameFileRow } from './game-files.repository';
import type { PlayDetection } from './play-detection';

/** The columns that hold what play detection decided (decision 0022). */
export function detectionColumns(detection: PlayDetection) {
  return {
    precompressedDecided: detection.precompressedDecided,
    precompressedReason: detection.precompressedReason,
    isolatedDecided: detection.isolatedDecided ? (1 as const) : (0 as const),
    isolatedReason: detection.isolatedReason,
  };
}

/**
 * What is recognised from a game's files (its engine, its play settings: decisions 0022), each recorded only if
 * the files have not changed since they were read.
 */
export class GameDetectionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The files a game's engine is recognised from, with the moment its files last changed (undefined: no such
   * game). Read in one transaction so the moment belongs to exactly these files.
   */
  async engineInputs(
    gameId: number,
  ): Promise<
    { filesChangedAt: string | null; files: Pick<GameFileRow, 'path' | 'size' | 'storageKey'>[] } | undefined
  > {
    return this.db.transaction().execute(async (trx) => {
      const game = await trx
        .selectFrom('games')
        .select('filesChangedAt')
        .where('id', '=', gameId)
        .executeTakeFirst();
      if (!game) return undefined;
      const files = await trx
        .selectFrom('gameFiles')
        .select(['path', 'size', 'storageKey'])
        .where('gameId', '=', gameId)
        .execute();
      return { filesChangedAt: game.filesChangedAt === null ? null : toIso(game.filesChangedAt), files };
    });
  }

  /**
   * Records the engine recognised from a game's files, only if they have not changed since `filesChangedAt`
   * (engineInputs): a later change records its own. False when they had changed (or the game is gone).
   * updatedAt stays: the engine follows from the files, whose change already moved it.
   */
  async recordEngine(gameId: number, engine: string | null, filesChangedAt: string | null): Promise<boolean> {
    let update = this.db.updateTable('games').set({ engine }).where('id', '=', gameId);
    update =
      filesChangedAt === null
        ? update.where('filesChangedAt', 'is', null)
        : update.where('filesChangedAt', '=', filesChangedAt);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records what detection decided from the files as they were when `filesChangedAt` was read: only if they have
   * not changed since (a later change runs its own detection, whose answer must not be overwritten by this one).
   */
  async recordDetection(
    id: number,
    detection: PlayDetection,
    filesChangedAt: string | null,
  ): Promise<boolean> {
    let update = this.db.updateTable('games').set(detectionColumns(detection)).where('id', '=', id);
    update =
      filesChangedAt === null
        ? update.where('filesChangedAt', 'is', null)
        : update.where('filesChangedAt', '=', filesChangedAt);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
