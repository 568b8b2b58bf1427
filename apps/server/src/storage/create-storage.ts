import type { StorageConfig } from '../config';
import { FaultReportingStorage } from './fault-reporting-storage';
import { LocalDiskStorage } from './local-disk-storage';
import type { Storage } from './storage';

/**
 * The storage the configuration names (STORAGE): the local disk under DATA_DIR, or an S3-compatible object
 * store, whose bucket must answer before the server starts (a start that cannot store files says so at once).
 * Either way its failures reach the app as 507 (full) or 503 (unavailable): FaultReportingStorage.
 */
export async function openStorage(config: StorageConfig): Promise<{ storage: Storage; close: () => void }> {
  if (config.kind === 'local')
    return { storage: new FaultReportingStorage(new LocalDiskStorage(config.dir), 'data'), close: () => {} };
  // The AWS SDK loads only here: a server on the local disk never needs it.
  const { S3Storage } = await import('./s3-storage');
  const storage = await S3Storage.open(config);
  try {
    await storage.assertReachable();
  } catch (error) {
    storage.close();
    const where = config.endpoint ?? `AWS S3 (${config.region})`;
    const why =
      error instanceof Error
        ? `${error.name}${error.message && error.message !== error.name ? `: ${error.message}` : ''}`
        : String(error);
    throw new Error(
      `Cannot use the bucket S3_BUCKET=${config.bucket} at ${where}: ${why}. Create the bucket, or check S3_ENDPOINT, S3_REGION and the keys.`,
    );
  }
  return { storage: new FaultReportingStorage(storage, 'objectStore'), close: () => storage.close() };
}
