import type { Readable } from 'node:stream';
import type { ByteRange, PutOptions, Storage, StoredKey, StoredObject } from './storage';
import { storageFault, tagStorageFault, type FullVolume } from './storage-faults';

/**
 * Any Storage, with its failures said in the app's terms (storage-faults.ts): a full disk is a StorageFullError
 * of `volume` (507), an unreachable or failing store a StorageUnavailableError (503). Without it an object store
 * refusing connections answered "The database is unavailable" (a refused socket looks alike) and a full disk a
 * bare 500. A put's own source failing (the client's upload cut short, a file over the limit) is the request's
 * error, not the store's, and passes unchanged. Streams of get() tag the errors they emit instead (a stream
 * cannot swap its error), which the error envelope reads the same way.
 */
export class FaultReportingStorage implements Storage {
  constructor(
    private readonly inner: Storage,
    /** The volume a full local disk is: DATA_DIR for the local disk; an object store answers 507 itself. */
    private readonly volume: FullVolume,
  ) {}

  async put(key: string, data: Readable | Buffer, options?: PutOptions): Promise<{ size: number }> {
    let sourceError: unknown;
    if (!Buffer.isBuffer(data)) data.once('error', (error) => (sourceError = error));
    try {
      return await this.inner.put(key, data, options);
    } catch (error) {
      throw error === sourceError ? error : storageFault(error, this.volume);
    }
  }

  copy(from: string, to: string): Promise<{ size: number }> {
    return this.run(() => this.inner.copy(from, to));
  }

  makeDurable(keys: string[]): Promise<void> {
    return this.run(() => this.inner.makeDurable(keys));
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | undefined> {
    const object = await this.run(() => this.inner.get(key, range));
    object?.stream.once('error', tagStorageFault);
    return object;
  }

  stat(key: string): Promise<{ size: number } | undefined> {
    return this.run(() => this.inner.stat(key));
  }

  delete(key: string): Promise<void> {
    return this.run(() => this.inner.delete(key));
  }

  deleteMany(keys: string[]): Promise<void> {
    return this.run(() => this.inner.deleteMany(keys));
  }

  async *list(prefix?: string): AsyncIterable<StoredKey> {
    try {
      yield* this.inner.list(prefix);
    } catch (error) {
      throw storageFault(error, this.volume);
    }
  }

  removeAbandonedWrites(before: Date): Promise<number> {
    return this.run(() => this.inner.removeAbandonedWrites(before));
  }

  removeFailedWrites(): Promise<number> {
    return this.run(() => this.inner.removeFailedWrites());
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storageFault(error, this.volume);
    }
  }
}
