import { statfs } from 'node:fs/promises';
import type { VolumeId, VolumeSpace } from '@reskin/contract';
import { StorageFullError } from './storage-faults';

/** How much of a volume to keep free: the smaller of a share of it and a size (MIN_FREE_SPACE_PERCENT, _MB). */
export interface FreeSpaceThreshold {
  percent: number;
  bytes: number;
}

/** The free and total bytes of the volume that holds `path`. */
export type SpaceProbe = (path: string) => Promise<{ freeBytes: number; totalBytes: number }>;

/** fs.statfs: the blocks an unprivileged writer may still use (bavail; root's reserve is not counted). */
export const statfsProbe: SpaceProbe = async (path) => {
  const info = await statfs(path);
  return { freeBytes: info.bavail * info.bsize, totalBytes: info.blocks * info.bsize };
};

/**
 * What needs room where: an upload writes to DATA_DIR, a zip upload and a version's batch (its files, its .zip
 * inflated) to the temporary folder first.
 */
export type SpaceNeed = 'upload' | 'zip' | 'batch' | 'generation';
const volumesOf: Record<SpaceNeed, VolumeId[]> = {
  upload: ['data'],
  zip: ['temp', 'data'],
  batch: ['temp', 'data'],
  generation: ['data'],
};

/**
 * The free-space guard: uploads, zip uploads and generation are refused with 507 STORAGE_FULL while a
 * volume they write to has less free space than its threshold, so the volume never fills up through them and
 * what frees space or needs little (deletes, logins, Add User, every database write) still works. Only volumes
 * of this machine are guarded: DATA_DIR when it holds the SQLite database or the files (STORAGE=local), and the
 * temporary folder. An object store and PostgreSQL watch their own disks; a write that finds one full still
 * answers 507 (storage-faults.ts).
 */
export class FreeSpaceGuard {
  constructor(
    private readonly volumes: { volume: VolumeId; path: string }[],
    private readonly threshold: FreeSpaceThreshold,
    private readonly probe: SpaceProbe = statfsProbe,
  ) {}

  /** The bytes to keep free on a volume of `totalBytes`. */
  minFreeBytes(totalBytes: number): number {
    return Math.floor(Math.min((totalBytes * this.threshold.percent) / 100, this.threshold.bytes));
  }

  /** Every guarded volume's free space against its threshold (GET /api/health/ready). */
  async report(): Promise<VolumeSpace[]> {
    return Promise.all(this.volumes.map(({ volume, path }) => this.measure(volume, path)));
  }

  /** Throws a StorageFullError naming the first volume `need` writes to that is under its threshold. */
  async assertRoom(need: SpaceNeed): Promise<void> {
    for (const { volume, path } of this.volumes) {
      if (!volumesOf[need].includes(volume)) continue;
      if ((await this.measure(volume, path)).low) throw new StorageFullError(volume);
    }
  }

  private async measure(volume: VolumeId, path: string): Promise<VolumeSpace> {
    const { freeBytes, totalBytes } = await this.probe(path);
    const minFreeBytes = this.minFreeBytes(totalBytes);
    return {
      volume,
      freeBytes,
      totalBytes,
      minFreeBytes,
      low: freeBytes < minFreeBytes || (minFreeBytes === 0 && freeBytes === 0),
    };
  }
}
