import { errorCodes, type VolumeId } from '@reskin/contract';
import { AppError } from '../lib/errors';

// Faults of the places the server writes to: a full volume answers 507 STORAGE_FULL with a message that
// names it, a file storage that cannot be used answers 503 STORAGE_UNAVAILABLE, and neither is ever a generic 500
// nor mistaken for a database outage (both are often a failed socket call underneath).

/** A place that can run out of space: the guarded volumes of this machine, the database's, the object store. */
export type FullVolume = VolumeId | 'database' | 'objectStore';

const volumeNames: Record<FullVolume, string> = {
  data: "the server's data volume (DATA_DIR)",
  temp: "the server's temporary folder (TMPDIR)",
  database: "the database's disk",
  objectStore: 'the object store',
};

/** The 507 message for a volume: the same whether the guard refused in time or a write hit the end of the disk. */
export function storageFullMessage(volume: FullVolume): string {
  return (
    `There is too little free space on ${volumeNames[volume]}: uploads, zip uploads and generation are refused ` +
    'until an administrator frees space (delete games, versions or helper files) or enlarges it.'
  );
}

/** A volume is full, or under its free-space threshold: 507 STORAGE_FULL. */
export class StorageFullError extends AppError {
  constructor(
    readonly volume: FullVolume,
    options?: { cause?: unknown },
  ) {
    super(507, errorCodes.storageFull, storageFullMessage(volume));
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** The file storage cannot be used now (an object store unreachable or failing, a local disk's I/O error): 503. */
export class StorageUnavailableError extends AppError {
  constructor(options?: { cause?: unknown }) {
    super(503, errorCodes.storageUnavailable, 'The file storage is unavailable; try again shortly.');
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** The error codes of a write that found no room: no space left, or the user's quota used up. */
const noSpaceCodes = new Set(['ENOSPC', 'EDQUOT']);

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/**
 * A write that found no room, where it happened: ENOSPC or EDQUOT from a file of DATA_DIR or the temporary
 * folder (`volume` says which), SQLITE_FULL (the SQLite file lives in DATA_DIR), or PostgreSQL's disk_full
 * (53100). Undefined for anything else.
 */
export function fullVolumeOf(error: unknown, volume: FullVolume = 'data'): FullVolume | undefined {
  if (error instanceof StorageFullError) return error.volume;
  const code = codeOf(error);
  if (typeof code !== 'string') return undefined;
  if (noSpaceCodes.has(code)) return volume;
  if (code === 'SQLITE_FULL') return 'data';
  if (code === '53100') return 'database';
  return undefined;
}

/** Marks errors that a storage read stream emitted (the bytes of an object failing half-way). */
const storageFaultTag = Symbol('storageFault');

/** Tags an error a storage stream emitted, so the error envelope can tell it from the database's. */
export function tagStorageFault(error: unknown): void {
  if (typeof error === 'object' && error !== null && !(error instanceof AppError)) {
    Object.defineProperty(error, storageFaultTag, { value: true });
  }
}

/** Whether a storage read stream emitted this error (tagStorageFault). */
export function isTaggedStorageFault(error: unknown): boolean {
  return typeof error === 'object' && error !== null && storageFaultTag in error;
}

/**
 * What an error thrown by a storage backend means for the request. Errors on purpose (AppError, a missing
 * object), and the programming errors of a caller (an invalid key: a plain Error), pass unchanged; a write
 * that found no room becomes a StorageFullError of `volume`; the rest of what a disk or an object store
 * answers (an errno code, an S3 service error or the SDK's time-out) becomes a StorageUnavailableError.
 */
export function storageFault(error: unknown, volume: FullVolume): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  const full = fullVolumeOf(error, volume);
  if (full) return new StorageFullError(full, { cause: error });
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  // MinIO and others answer 507 when their disks are full (XMinioStorageFull).
  if (metadata?.httpStatusCode === 507) return new StorageFullError('objectStore', { cause: error });
  if (metadata || typeof codeOf(error) === 'string' || error.name === 'TimeoutError')
    return new StorageUnavailableError({ cause: error });
  return error;
}
