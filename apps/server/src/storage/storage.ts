import type { Readable } from 'node:stream';

/** A stored object, opened for reading (all of it, or the range asked for). */
export interface StoredObject {
  /** The object's bytes: all of them, or those of `range`. */
  stream: Readable;
  /** The size of the whole object. */
  size: number;
  /** The MIME type of the object, from its key's extension. */
  contentType: string;
  /** The bytes the stream holds when a range was asked for: `start` to `end`, both included. */
  range?: ByteRange;
}

/** Bytes `start` to `end` of an object, both included (as in an HTTP Range header), within its size. */
export interface ByteRange {
  start: number;
  end: number;
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

/** How an object is written. */
export interface PutOptions {
  /**
   * False for an object that can be made again from others (a generated copy): the local disk then does not
   * wait for it to reach the disk (no fsync). A process crash loses nothing (the kernel still writes it); a power
   * loss or OS crash soon after may leave it empty or missing, and generating the game again restores it. S3
   * ignores it: an object is durable once its upload completes. Default true.
   */
  durable?: boolean;
}

/** A key in a listing, with when its object was last written. */
export interface StoredKey {
  key: string;
  lastModified: Date;
}

/**
 * Where game files, generated variants, version files and helper files live (DESIGN.md "Running"): one
 * interface, two backends chosen by STORAGE (storage/create-storage.ts): the local disk (LocalDiskStorage) and an
 * S3-compatible object store (S3Storage). Keys are `/`-separated relative paths that the caller builds from ids,
 * never from user input alone.
 */
export interface Storage {
  /**
   * Streams `data` to `key` without holding it in memory, or writes a Buffer (a body already in memory, such as a
   * generated copy) in one go: on S3 one request instead of an upload's. The object appears only once it is
   * complete, replacing any previous one; a failed or cut-off stream leaves the previous object (or none) and rejects.
   */
  put(key: string, data: Readable | Buffer, options?: PutOptions): Promise<{ size: number }>;
  /**
   * Stores the object `from` again under `to`, as an object of its own (removing either leaves the other), without
   * sending its bytes through the app: the local disk links the file (nothing written again), S3 copies it inside
   * the bucket. The history of a version's files keeps its copies so (decision 0060).
   */
  copy(from: string, to: string): Promise<{ size: number }>;
  /**
   * Waits until objects put with `durable: false` have reached the disk (LocalDiskStorage: an fsync of each, many at
   * once, so the disk's journal commits them together; S3: nothing, an object is durable once its upload completes).
   * An upload of many files writes them all without waiting and then this once, before it records them (decision
   * 0061): waiting after each write was most of a small file's cost.
   */
  makeDurable(keys: string[]): Promise<void>;
  /** Opens `key` (only the bytes of `range` when given, which must lie within the object), or answers undefined when it does not exist. */
  get(key: string, range?: ByteRange): Promise<StoredObject | undefined>;
  /** The size of `key`, or undefined when it does not exist (to resolve a range request before reading). */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every key of `keys` (in batches where the backend has them); missing keys are not an error. */
  deleteMany(keys: string[]): Promise<void>;
  /** Every object under `prefix` (all when omitted), in no particular order, page by page. Writes in progress are not listed. */
  list(prefix?: string): AsyncIterable<StoredKey>;
  /**
   * Removes what writes cut off by a crash left behind (LocalDiskStorage: `.partial` files; S3Storage: unfinished
   * multipart uploads) when it was started before `before`; answers how many were removed.
   */
  removeAbandonedWrites(before: Date): Promise<number>;
  /**
   * Removes what writes of this process that failed left behind because the store could not be reached then
   * (S3Storage: multipart uploads whose abort failed), whatever their age; throws while the store still cannot.
   * The local disk has none: a failed write removes its `.partial` file itself. Answers how many were removed.
   */
  removeFailedWrites(): Promise<number>;
}
