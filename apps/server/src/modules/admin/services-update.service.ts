import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { GameStatus, fileKindOf, type ServicesUpdateResponse } from '@reskin/contract';
import type { Database } from '../../db/schema';
import { withPreviews } from '../../lib/images/image-previews';
import { variantKey } from '../../lib/images/copy-keys';
import type { Storage } from '../../storage/storage';
import type { FreeSpaceGuard } from '../../storage/free-space';
import { StorageFullError } from '../../storage/storage-faults';
import type { SheetComposer } from '../versions/sheets/sheet-composer';
import type { GameGeneration } from '../games/game-generation';
import { orphanGraceMs, withVariants, type StoredFilesService } from '../stored-files/stored-files.service';
import type { VersionHistoryRepository } from '../version-history/version-history.repository';

/**
 * GET /admin/update, "Services update" (DESIGN.md "Games, files, variants"): removes at once what failed
 * requests of this server left in storage (the store was unreachable then), and, once they are an hour old,
 * stored files that no record points to and writes that a crash cut off; ends the generations left Generating
 * with no job (Failed); re-generates every Ready game whose generated copies are missing, and queues the copies
 * of a Ready game's changed files where they are still owed (decision 0024), unless DATA_DIR is low on space,
 * which the rest of the update still frees; and composes the versions' sheets a stopped server left behind their frames.
 */
export class ServicesUpdateService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: Storage,
    private readonly generation: GameGeneration,
    private readonly storedFiles: StoredFilesService,
    private readonly space: FreeSpaceGuard,
    private readonly log: FastifyBaseLogger,
    /** The history of versions' files (decision 0034) and VERSION_HISTORY_LIMIT, which may have been lowered. */
    private readonly versionHistory: { history: VersionHistoryRepository; limit: number },
    /** Composes the versions' sheets left behind their frames (decision 0046). */
    private readonly sheets: Pick<SheetComposer, 'recomposeBehind'>,
  ) {}

  async run(): Promise<ServicesUpdateResponse> {
    let removedStoredFiles = await this.storedFiles.removeLeftovers();
    // History entries beyond the limit (lowered since they were added), oldest first, with their objects.
    const trimmed = await this.versionHistory.history.trimAll(this.versionHistory.limit);
    await this.storage.deleteMany(trimmed.keys);
    removedStoredFiles += trimmed.keys.length;
    const removedHistoryEntries = trimmed.entries;
    const before = new Date(Date.now() - orphanGraceMs);
    // The objects first, the records after: an upload records its files before they are an hour old
    // (uploadRecordDeadlineMs), so an old object listed here is recorded by the time the records are read, or never.
    const stored = new Set<string>();
    const old: string[] = [];
    for await (const { key, lastModified } of this.storage.list()) {
      stored.add(key);
      if (lastModified < before) old.push(key);
    }
    const referenced = await this.referencedKeys();
    // In batches on an object store (S3's DeleteObjects takes 1000 keys a call).
    const orphans = old.filter((key) => !referenced.has(key));
    await this.storage.deleteMany(orphans);
    removedStoredFiles += orphans.length;
    removedStoredFiles += await this.storage.removeAbandonedWrites(before);
    const failedGenerationIds = await this.generation.failStranded();
    const regeneratedGameIds: number[] = [];
    const { stale, pending } = await this.staleReadyGames(stored);
    if ((stale.length > 0 || pending.length > 0) && (await this.hasRoomToGenerate())) {
      for (const gameId of stale) {
        if ((await this.generation.start(gameId)).started) regeneratedGameIds.push(gameId);
      }
      for (const gameId of pending) if (!stale.includes(gameId)) await this.generation.refresh(gameId);
    }
    const recomposedSheets = await this.sheets.recomposeBehind();
    this.log.info(
      {
        regeneratedGameIds,
        removedStoredFiles,
        failedGenerationIds,
        removedHistoryEntries,
        recomposedSheets,
      },
      'services update',
    );
    return {
      regeneratedGameIds,
      removedStoredFiles,
      failedGenerationIds,
      removedHistoryEntries,
      recomposedSheets,
    };
  }

  /** False (and a warning) while DATA_DIR is under its free-space threshold: the stale games wait for the next update. */
  private async hasRoomToGenerate(): Promise<boolean> {
    try {
      await this.space.assertRoom('generation');
      return true;
    } catch (error) {
      if (!(error instanceof StorageFullError)) throw error;
      this.log.warn(
        'services update: DATA_DIR is low on space; games with changed files are not re-generated',
      );
      return false;
    }
  }

  /**
   * Every storage key a record points to, with the copies generation may have made of game files and the copies
   * the play origin serves for them (copiesKey, the previous content's while the new ones are made).
   */
  private async referencedKeys(): Promise<Set<string>> {
    const keys = new Set<string>();
    for (const file of await this.db.selectFrom('gameFiles').select(['storageKey', 'copiesKey']).execute()) {
      for (const key of withVariants(file.storageKey)) keys.add(key);
      if (file.copiesKey !== null) for (const key of withVariants(file.copiesKey).slice(1)) keys.add(key);
    }
    for (const table of ['helperFiles', 'versionFiles', 'versionFrames'] as const) {
      for (const row of await this.db.selectFrom(table).select('storageKey').execute())
        keys.add(row.storageKey);
    }
    for (const row of await this.db.selectFrom('versionSheets').select(['baseKey', 'markedKey']).execute()) {
      // A sheet's whole-sheet base and its marked rendition (decision 0049).
      if (row.baseKey !== null) keys.add(row.baseKey);
      if (row.markedKey !== null) keys.add(row.markedKey);
    }
    // The history's own copies (decision 0034): kept while their entry is listed.
    for (const key of await this.versionHistory.history.allKeys()) keys.add(key);
    // The previews beside any of them (decision 0038), made by generation or on first request.
    return new Set(withPreviews([...keys]));
  }

  /**
   * Ready games with an image whose recorded copies are not stored (`stale`: Gen. makes them all again), and those
   * with an image whose copies are not current (`pending`: its incremental generation did not end, decision 0024).
   */
  private async staleReadyGames(stored: Set<string>): Promise<{ stale: number[]; pending: number[] }> {
    const games = await this.db
      .selectFrom('games')
      .select('id')
      .where('gameStatusTypeId', '=', GameStatus.Ready)
      .execute();
    const stale: number[] = [];
    const pending: number[] = [];
    for (const game of games) {
      const images = (
        await this.db
          .selectFrom('gameFiles')
          .select(['path', 'width', 'storageKey', 'copiesKey', 'copiesOf'])
          .where('gameId', '=', game.id)
          .execute()
      ).filter((file) => fileKindOf(file) === 'image');
      const missing = images.some(
        ({ copiesKey }) =>
          copiesKey !== null &&
          (!stored.has(variantKey(copiesKey, 'skeleton')) || !stored.has(variantKey(copiesKey, 'watermark'))),
      );
      if (missing) stale.push(game.id);
      else if (images.some((file) => file.copiesOf !== file.storageKey)) pending.push(game.id);
    }
    return { stale, pending };
  }
}
