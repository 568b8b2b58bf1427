import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import { errorCodes } from '@reskin/contract';
import { withDetail } from '../../lib/errors';
import type { Database } from '../../db/schema';
import { withPreviews } from '../../lib/images/image-previews';
import { variantKey } from '../../lib/images/copy-keys';
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
  throw withDetail(408, errorCodes.uploadTooSlow, message, '/file', 'too_slow');
}

/** A stored original with the copies generation may have made of it (deleting a missing one is no error). */
export function withVariants(storageKey: string): string[] {
  return [storageKey, variantKey(storageKey, 'skeleton'), variantKey(storageKey, 'watermark')];
}

/** How a request's clean-up retries while the store cannot be reached: 1 s, doubling up to 10 s, for 15 minutes. */
export interface CleanupRetry {
  firstDelayMs: number;
  maxDelayMs: number;
  forMs: number;
}
export const cleanupRetry: CleanupRetry = { firstDelayMs: 1000, maxDelayMs: 10_000, forMs: 15 * 60 * 1000 };

/**
 * Deletes of games, user-games, users and versions with their stored files (DESIGN.md "Games, files,
 * variants"): the rows go in one transaction that lists the keys they point to, the objects after the commit.
 * Objects that cannot be deleted then (the store unreachable), and what a failed request staged, are kept in
 * this process's memory and removed as soon as the store answers again: retried in the background,
 * and at once by the services update. Only a crash in between leaves an orphan for the services update's hourly
 * sweep.
 */
export class StoredFilesService {
  /** Keys whose objects could not be deleted yet. */
  private readonly leftovers = new Set<string>();
  /** The store may hold failed writes it could not remove then (Storage.removeFailedWrites). */
  private failedWrites = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 0;
  private retryUntil = 0;

  constructor(
    private readonly files: StoredFilesRepository,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    private readonly retry: CleanupRetry = cleanupRetry,
  ) {}

  /**
   * Deletes the owner's row (and its cascade), then its stored files; false when there was no such row. `before`
   * runs first in the delete's transaction and may refuse it by throwing.
   */
  async deleteOwner(
    owner: FileOwner,
    before?: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<boolean> {
    const keys = await this.files.deleteOwner(owner, before);
    if (!keys) return false;
    await this.deleteObjects([...keys.gameFiles.flatMap(withVariants), ...keys.others]);
    return true;
  }

  /**
   * Deletes objects whose records are gone, with their previews (in batches: storage.deleteMany). Never fails: while the store cannot
   * be reached they are kept and removed once it answers (the background retry, or the services update).
   */
  async deleteObjects(objects: string[]): Promise<void> {
    // Any object may have previews beside it (decision 0038), made by generation or by a first request.
    await this.deleteKeys(withPreviews(objects));
  }

  /** Deletes exactly these keys (deleteObjects). */
  private async deleteKeys(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.storage.deleteMany(keys);
    } catch (error) {
      this.log.warn(
        { err: error, keys: keys.length },
        'could not delete stored objects; retrying once the storage answers',
      );
      for (const key of keys) this.leftovers.add(key);
      this.scheduleRetry();
    }
  }

  /**
   * Removes what a failed request staged: its stored objects, and the writes the store could not abort when it
   * failed (S3 multipart uploads). Never fails, like deleteObjects.
   */
  async removeStaged(keys: string[]): Promise<void> {
    this.failedWrites = true;
    // What a failed request staged was never answered, so it has no previews.
    await this.deleteKeys(keys);
    if (this.leftovers.size === 0) await this.removeLeftovers().catch(() => this.scheduleRetry());
  }

  /**
   * Removes every object this process could not delete before and every failed write the store still holds
   * (the services update calls it; so does the background retry). Answers how many; throws while the store
   * cannot be reached.
   */
  async removeLeftovers(): Promise<number> {
    const keys = [...this.leftovers];
    let removed = 0;
    if (keys.length > 0) {
      await this.storage.deleteMany(keys);
      for (const key of keys) this.leftovers.delete(key);
      removed += keys.length;
    }
    if (this.failedWrites) {
      removed += await this.storage.removeFailedWrites();
      this.failedWrites = false;
    }
    return removed;
  }

  /** Stops the background retry (app close); what is left goes to the services update's sweep. */
  close(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    if (this.retryDelayMs === 0) {
      this.retryDelayMs = this.retry.firstDelayMs;
      this.retryUntil = Date.now() + this.retry.forMs;
    }
    this.retryTimer = setTimeout(() => void this.retryNow(), this.retryDelayMs);
    this.retryTimer.unref();
  }

  private async retryNow(): Promise<void> {
    this.retryTimer = undefined;
    try {
      const removed = await this.removeLeftovers();
      this.retryDelayMs = 0;
      this.log.info({ removed }, 'removed the stored objects left by failed requests');
    } catch {
      if (Date.now() >= this.retryUntil) {
        this.retryDelayMs = 0;
        this.log.warn(
          { keys: this.leftovers.size },
          'the storage is still unavailable; the services update removes what failed requests left',
        );
        return;
      }
      this.retryDelayMs = Math.min(this.retryDelayMs * 2, this.retry.maxDelayMs);
      this.scheduleRetry();
    }
  }
}
