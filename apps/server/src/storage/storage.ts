import type { Readable } from 'node:stream';

/** A stored object, opened for reading. */
export interface StoredObject {
  stream: Readable;
  size: number;
  /** The MIME type of the object, from its key's extension. */
  contentType: string;
}

/**
 * A record points to an object that storage does not hold (lost, or deleted by hand): a fault of the server,
 * never of the request. The message names the key, so the log does.
 */
export class MissingObjectError extends Error {
  constructor(readonly key: string) {
    super(`The stored object ${key} is missing.`);
  }
}

/** A key in a listing, with when its object was last written. */
export interface StoredKey {
  key: string;
  lastModified: Date;
}

/**
 * Where game files, generated variants, version files and helper files live (DESIGN.md "Running"): one
 * interface, local disk now, an S3-compatible object store later. Keys are `/`-separated relative paths
 * that the caller builds from ids, never from user input alone.
 */
export interface Storage {
  /** Streams `data` to `key`. The object appears only once it is complete, replacing any previous one. */
  put(key: string, data: Readable): Promise<{ size: number }>;
  /** Opens `key`, or answers undefined when it does not exist. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every object under `prefix` (all when omitted), in no particular order. Writes in progress are not listed. */
  list(prefix?: string): AsyncIterable<StoredKey>;
  /**
   * Removes what writes cut off by a crash left behind (LocalDiskStorage: `.partial` files) when it was last
   * written before `before`; answers how many were removed.
   */
  removeAbandonedWrites(before: Date): Promise<number>;
}
