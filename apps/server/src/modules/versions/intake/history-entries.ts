import type { Transaction } from 'kysely';
import type { HistoryHow } from '@reskin/contract';
import type { Database } from '../../../db/schema';
import type { PutOptions } from '../../../storage/storage';

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
  /**
   * Stores the version file's bytes (or copies its stored object) as a history object of its own; `options` as for
   * Storage.put (a frame upload writes it without waiting for the disk and syncs its objects together).
   */
  stage(
    versionId: number,
    fileKey: string,
    file: Omit<StagedEntry, 'storageKey' | 'fileKey' | 'size'>,
    bytes?: Buffer,
    options?: PutOptions,
  ): Promise<StagedEntry>;
  /** The step of the recording transaction that adds the entry; the keys it dropped go onto `dropped`. */
  recordIn(
    staged: StagedEntry,
    cause: HistoryCause,
    dropped: string[],
    entriesBefore?: number,
  ): (trx: Transaction<Database>, versionId: number, fileId: number) => Promise<void>;
  /** Removes a staged copy whose recording failed or was not needed. */
  discard(staged: StagedEntry | undefined): Promise<void>;
}
