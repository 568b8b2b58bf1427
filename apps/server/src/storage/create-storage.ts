import type { StorageConfig } from '../config';
import { LocalDiskStorage } from './local-disk-storage';
import type { Storage } from './storage';

/** The storage the configuration names (STORAGE): the local disk under DATA_DIR, or an S3-compatible object store. */
export function createStorage(config: StorageConfig): Storage {
  switch (config.kind) {
    case 'local':
      return new LocalDiskStorage(config.dir);
    case 's3':
      throw new Error('STORAGE=s3 is not built yet.');
  }
}
