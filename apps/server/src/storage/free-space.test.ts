import { describe, expect, it } from 'vitest';
import { errorCodes } from '@reskin/contract';
import { FreeSpaceGuard, statfsProbe, type SpaceProbe } from './free-space';
import { StorageFullError } from './storage-faults';

// The free-space guard's arithmetic with a fake probe: test/disk-full.test.ts shows it on a real full
// volume (a tmpfs), and this file keeps the guard covered where mounting is not allowed.

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** A fake statfs: each path's free and total bytes, as a test sets them. */
function fakeProbe(volumes: Record<string, { freeBytes: number; totalBytes: number }>): SpaceProbe {
  return async (path) => volumes[path]!;
}

describe('FreeSpaceGuard', () => {
  const threshold = { percent: 5, bytes: GB };

  it('keeps the smaller of 5% and 1 GB free: 1 GB of a big volume, 5% of a small one', () => {
    const guard = new FreeSpaceGuard([], threshold, fakeProbe({}));
    expect(guard.minFreeBytes(500 * GB)).toBe(GB);
    expect(guard.minFreeBytes(10 * GB)).toBe(Math.floor(0.5 * GB));
    expect(new FreeSpaceGuard([], { percent: 0, bytes: GB }).minFreeBytes(10 * GB)).toBe(0);
  });

  it('refuses what writes to a volume under its threshold with a StorageFullError naming it (507 STORAGE_FULL)', async () => {
    const volumes = {
      '/data': { freeBytes: 600 * MB, totalBytes: 100 * GB },
      '/tmp': { freeBytes: 50 * GB, totalBytes: 100 * GB },
    };
    const guard = new FreeSpaceGuard(
      [
        { volume: 'data', path: '/data' },
        { volume: 'temp', path: '/tmp' },
      ],
      threshold,
      fakeProbe(volumes),
    );
    const refusal = await guard.assertRoom('upload').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StorageFullError);
    expect(refusal).toMatchObject({ statusCode: 507, code: errorCodes.storageFull, volume: 'data' });
    expect((refusal as Error).message).toContain('DATA_DIR');
    await expect(guard.assertRoom('generation')).rejects.toBeInstanceOf(StorageFullError);
    expect(await guard.report()).toEqual([
      { volume: 'data', freeBytes: 600 * MB, totalBytes: 100 * GB, minFreeBytes: GB, low: true },
      { volume: 'temp', freeBytes: 50 * GB, totalBytes: 100 * GB, minFreeBytes: GB, low: false },
    ]);

    // The temporary folder low: only a zip upload (written there first) is refused, naming TMPDIR.
    volumes['/data'] = { freeBytes: 20 * GB, totalBytes: 100 * GB };
    volumes['/tmp'] = { freeBytes: 10 * MB, totalBytes: 100 * GB };
    await expect(guard.assertRoom('upload')).resolves.toBeUndefined();
    await expect(guard.assertRoom('zip')).rejects.toMatchObject({
      volume: 'temp',
      message: expect.stringContaining('TMPDIR'),
    });
  });

  it('measures a real folder with fs.statfs', async () => {
    const { freeBytes, totalBytes } = await statfsProbe('.');
    expect(totalBytes).toBeGreaterThan(0);
    expect(freeBytes).toBeGreaterThanOrEqual(0);
    expect(freeBytes).toBeLessThanOrEqual(totalBytes);
  });
});
