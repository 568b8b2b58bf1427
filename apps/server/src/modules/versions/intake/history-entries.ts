import type { Transaction } from 'kysely';
import type { HistoryHow } from '@reskin/contract';
import type { Database } from '../../../db/schema';

/** Who made a history entry and how (decision 0034). */
export interface HistoryCause {
  how: HistoryHow;
  authorId: number | null;
  restoredFrom?: number | null;
}

/** A copy staged for an entry before the transaction that records the version file. */
export interface StagedEntry {
  storageKey: string;
  /** The version file's key this copies. */
  fileKey: string;
  size: number;
  width: number | null;
  height: number | null;
  contentType: string;
}

/**
 * What the intake and the sheet composition need of the history of a version's files (decision 0034), which
 * modules/version-history/ keeps (VersionHistoryRecorder): declared here, so versions never import it back.
 */
export interface FileHistory {
  /** Copies the version file's stored object as a history object of its own (inside the store). */
  stage(
    versionId: number,
    fileKey: string,
    file: Omit<StagedEntry, 'storageKey' | 'fileKey' | 'size'>,
  ): Promise<StagedEntry>;
  /** The step of the recording transaction that adds the entry; the keys it dropped go onto `dropped`. */
  recordIn(
    staged: StagedEntry,
    cause: HistoryCause,
    dropped: string[],
    entriesBefore?: number,
  ): (trx: Transaction<Database>, versionId: number, fileId: number) => Promise<void>;
  /**
   * recordIn for several files of one version at once (a batch's group, decision 0060): their entries in one
   * insert, the oldest beyond the limit dropped in one statement; the dropped keys go onto `dropped`.
   */
  recordAllIn(
    trx: Transaction<Database>,
    versionId: number,
    entries: { fileId: number; staged: StagedEntry }[],
    cause: HistoryCause,
    dropped: string[],
  ): Promise<void>;
  /** Removes a staged copy whose recording failed or was not needed. */
  discard(staged: StagedEntry | undefined): Promise<void>;
}
