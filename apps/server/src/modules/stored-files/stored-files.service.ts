import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import { errorCodes } from '@reskin/contract';
import { AppError } from '../../lib/errors';
import type { Database } from '../../db/schema';
import { variantKey } from '../../lib/variants';
import type { Storage } from '../../storage/storage';
import type { FileOwner, StoredFilesRepository } from './stored-files.repository';

/**
 * The services update removes stored objects that no record points to only once they are this old: younger
 * ones may belong to an upload that has stored its files and not yet recorded them.
 */
export const orphanGraceMs = 60 * 60 * 1000;

/**
 * An upload records its files within this time of its start, or is refused (and its stored files deleted), so
 * none of them can reach orphanGraceMs unrecorded. The margin covers the recording transaction and the services
 * update's own run (it lists the objects first and reads the records after).
 */
export const uploadRecordDeadlineMs = 50 * 60 * 1000;

/** 408 when an upload that started at `startedAt` (Date.now()) is past uploadRecordDeadlineMs. */
export function assertUploadInTime(startedAt: number): void {
  if (Date.now() - startedAt <= uploadRecordDeadlineMs) return;
  const message = `The upload took longer than ${uploadRecordDeadlineMs / 60_000} minutes and was not stored; send fewer files at a time.`;
  throw new AppError(408, 'RequestTimeoutError', message, errorCodes.uploadTooSlow, [
    { path: '/file', code: 'too_slow', message },
  ]);
}

/** A stored original with the copies generation may have made of it (deleting a missing one is no error). */
export function withVariants(storageKey: string): string[] {
  return [storageKey, variantKey(storageKey, 'skeleton'), variantKey(storageKey, 'watermark')];
}

/**
 * Deletes of games, user-games, users and versions with their stored files (DESIGN.md "Games, files,
 * variants"): the rows go in one transaction that lists the keys they point to, the objects after the commit.
 * An object that cannot be deleted then, or a crash in between, leaves an orphan that the services update
 * removes.
 */
export class StoredFilesService {
  constructor(
    private readonly files: StoredFilesRepository,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Deletes the owner's row (and its cascade), then its stored files; false when there was no such row. `before`
   * runs first in the delete's transaction and may refuse it by throwing.
   */
  async deleteOwner(owner: FileOwner, before?: (trx: Transaction<Database>) => Promise<void>): Promise<boolean> {
    const keys = await this.files.deleteOwner(owner, before);
    if (!keys) return false;
    await this.deleteObjects([...keys.gameFiles.flatMap(withVariants), ...keys.others]);
    return true;
  }

  /** Deletes objects whose records are gone (in batches: storage.deleteMany). Never fails: what is left is an orphan for the services update. */
  async deleteObjects(keys: string[]): Promise<void> {
    await this.storage
      .deleteMany(keys)
      .catch((error: unknown) => this.log.warn({ err: error, keys: keys.length }, 'could not delete stored objects; the services update will'));
  }
}
