import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Storage } from '../../storage/storage';
import type { StoredFilesService } from '../stored-files/stored-files.service';
import type { HistoryCause, StagedEntry, VersionHistoryRepository } from './version-history.repository';

/** The prefix of every history object's key (decision 0034): copies of their own, never a version file's key. */
export const historyKeyPrefix = 'history/';

/**
 * Adds history entries where a version's file changes (decision 0034): the single upload (and so the batch's rows
 * and a restore), and the composition of a sheet after a frame or whole-sheet change. The file, already
 * stored under its version key, is copied to a key of the history's own before the recording transaction
 * (`stage`); the entry is added in that transaction (`recordIn`), which drops the oldest beyond the limit; the
 * dropped objects go after the commit (`dropped`). A failed recording removes the staged copy like the upload's.
 */
export class VersionHistoryRecorder {
  constructor(
    private readonly history: VersionHistoryRepository,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    /** VERSION_HISTORY_LIMIT: entries kept per version and file. */
    readonly limit: number,
  ) {}

  /**
   * Stores the version file just stored under `fileKey` again as a history object of its own: a copy inside the
   * store (Storage.copy: a link on the local disk), so its bytes are neither written again nor read back (decision
   * 0060).
   */
  async stage(
    versionId: number,
    fileKey: string,
    file: Omit<StagedEntry, 'storageKey' | 'fileKey' | 'size'>,
  ): Promise<StagedEntry> {
    const storageKey = `${historyKeyPrefix}${versionId}/${randomUUID()}${extname(fileKey)}`;
    try {
      const { size } = await this.storage.copy(fileKey, storageKey);
      return { ...file, storageKey, fileKey, size };
    } catch (error) {
      await this.storedFiles.removeStaged([storageKey]);
      throw error;
    }
  }

  /**
   * The step the version file's recording transaction runs: adds the entry, and pushes the keys of the entries
   * it dropped (over the limit) onto `dropped`, to delete once the transaction has committed.
   */
  recordIn(
    staged: StagedEntry,
    cause: HistoryCause,
    dropped: string[],
    /** The file's entries before this one, when the caller read them: below the limit, none are dropped. */
    entriesBefore?: number,
  ) {
    return async (trx: Transaction<Database>, versionId: number, fileId: number) => {
      const trim = entriesBefore === undefined || entriesBefore + 1 > this.limit;
      dropped.push(
        ...(await this.history.record(trx, versionId, fileId, staged, cause, trim ? this.limit : undefined)),
      );
    };
  }

  /** recordIn for several files of one version at once (FileHistory.recordAllIn). */
  async recordAllIn(
    trx: Transaction<Database>,
    versionId: number,
    entries: { fileId: number; staged: StagedEntry }[],
    cause: HistoryCause,
    dropped: string[],
  ): Promise<void> {
    dropped.push(...(await this.history.recordMany(trx, versionId, entries, cause, this.limit)));
  }

  /** Removes a staged copy whose recording failed or was not needed. */
  async discard(staged: StagedEntry | undefined): Promise<void> {
    if (staged) await this.storedFiles.removeStaged([staged.storageKey]);
  }
}
