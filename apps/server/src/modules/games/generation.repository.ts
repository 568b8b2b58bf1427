import { type Kysely } from 'kysely';
import { GameStatus } from '@reskin/contract';
import { nowIso } from '../../db/database';
import type { Database, Timestamp } from '../../db/schema';
import { gameFileColumns, type GameFileRow } from './game-files.repository';

/**
 * A game's generation (decision 0016): claiming it, its progress and its end, and the copies of its images that
 * are owed or recorded (decision 0024).
 */
export class GenerationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Sets a game Generating unless it already is; true when this call claimed it. */
  async claimForGeneration(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('games')
      .set({
        gameStatusTypeId: GameStatus.Generating,
        statusReason: null,
        generationDone: 0,
        generationTotal: null,
        updatedAt: nowIso(),
      })
      .where('id', '=', id)
      .where('gameStatusTypeId', '<>', GameStatus.Generating)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * A game's status, how many of its images the running generation has done, and when its row last changed
   * (a claim sets it) (undefined: no such game).
   */
  async generationState(
    id: number,
  ): Promise<{ gameStatusTypeId: number; generationDone: number; updatedAt: Timestamp } | undefined> {
    const row = await this.db
      .selectFrom('games')
      .select(['gameStatusTypeId', 'generationDone', 'updatedAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        gameStatusTypeId: row.gameStatusTypeId,
        generationDone: row.generationDone ?? 0,
        updatedAt: row.updatedAt,
      }
    );
  }

  /**
   * Claims a game left Generating with no job to end it (its end could not be recorded) for a new generation, as
   * claimForGeneration does: only if its row has not changed since `updatedAt` was read, so of two presses at once
   * one claims it.
   */
  async reclaimGeneration(id: number, updatedAt: Timestamp): Promise<boolean> {
    const result = await this.db
      .updateTable('games')
      .set({ statusReason: null, generationDone: 0, generationTotal: null, updatedAt: nowIso() })
      .where('id', '=', id)
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .where('updatedAt', '=', updatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The games Generating, with when each was claimed (the services update looks for those no job will end). */
  async generatingGames(): Promise<{ id: number; updatedAt: Timestamp }[]> {
    return this.db
      .selectFrom('games')
      .select(['id', 'updatedAt'])
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .execute();
  }

  /**
   * Records a generation's progress: `done` images of `total` (given once, when it starts). Progress only grows
   * (workers record it concurrently, in any order), and only while the game is Generating.
   */
  async recordProgress(id: number, done: number, total?: number): Promise<void> {
    let update = this.db
      .updateTable('games')
      .set({ generationDone: done, ...(total !== undefined && { generationTotal: total }) })
      .where('id', '=', id)
      .where('gameStatusTypeId', '=', GameStatus.Generating);
    if (total === undefined) update = update.where('generationDone', '<', done);
    await update.execute();
  }

  /** Whether any game is Generating (tests wait for every job to end). */
  async anyGenerating(): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('games')
        .select('id')
        .where('gameStatusTypeId', '=', GameStatus.Generating)
        .limit(1)
        .executeTakeFirst()) !== undefined
    );
  }

  /**
   * Ends a generation. Only a game still Generating changes (one set back to Draft by hand stays a Draft): true when
   * it did.
   */
  async finishGeneration(
    id: number,
    outcome: { gameStatusTypeId: number; statusReason: string | null },
  ): Promise<boolean> {
    const now = nowIso();
    const result = await this.db
      .updateTable('games')
      .set({
        ...outcome,
        ...(outcome.gameStatusTypeId === GameStatus.Ready ? { generatedAt: now } : {}),
        updatedAt: now,
      })
      .where('id', '=', id)
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async failInterruptedGenerations(reason: string): Promise<number[]> {
    const rows = await this.db
      .updateTable('games')
      .set({ gameStatusTypeId: GameStatus.Failed, statusReason: reason, updatedAt: nowIso() })
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * The images of a game whose copies are not current (none yet, or made from a replaced content): what an
   * incremental generation makes (decision 0024), in fileId order.
   */
  async pendingCopies(gameId: number): Promise<GameFileRow[]> {
    return this.db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .where('width', 'is not', null)
      .where((eb) => eb.or([eb('copiesOf', 'is', null), eb('copiesOf', '<>', eb.ref('storageKey'))]))
      .orderBy('fileId')
      .execute();
  }

  /** Ready games with an image whose copies are not current (an incremental generation is owed to each). */
  async readyGamesWithPendingCopies(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('games')
      .select('id')
      .where('gameStatusTypeId', '=', GameStatus.Ready)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('gameFiles')
            .select('gameFiles.id')
            .whereRef('gameFiles.gameId', '=', 'games.id')
            .where('gameFiles.width', 'is not', null)
            .where((inner) =>
              inner.or([
                inner('gameFiles.copiesOf', 'is', null),
                inner('gameFiles.copiesOf', '<>', inner.ref('gameFiles.storageKey')),
              ]),
            ),
        ),
      )
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Records that copies of the content `storageKey`, named after `copiesKey`, now exist for the file (row id), in
   * place of those named after `previous`: only while the file still has that content (one conditional update per
   * try, so jobs that overlap, on any server, never record copies of an older content). Answers the key of the
   * copies it replaced (null: none; they may go), 'already' when another job recorded these very copies first, or
   * 'stale' when the file was replaced or deleted meanwhile, so nothing will serve these copies.
   */
  async adoptCopies(
    id: number,
    storageKey: string,
    copiesKey: string,
    previous: string | null,
  ): Promise<{ replaced: string | null } | 'already' | 'stale'> {
    for (;;) {
      const result = await this.db
        .updateTable('gameFiles')
        .set({ copiesKey, copiesOf: storageKey })
        .where('id', '=', id)
        .where('storageKey', '=', storageKey)
        .where((eb) => (previous === null ? eb('copiesKey', 'is', null) : eb('copiesKey', '=', previous)))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return { replaced: previous };
      const now = await this.db
        .selectFrom('gameFiles')
        .select(['storageKey', 'copiesKey'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!now || now.storageKey !== storageKey) return 'stale';
      if (now.copiesKey === copiesKey) return 'already';
      // Another job recorded copies since `previous` was read: the last one made wins, the others' go.
      previous = now.copiesKey;
    }
  }
}
