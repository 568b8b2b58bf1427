import { usageFilterWhere, usageLabel, type FileUsage } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { usageCounts } from './file-usage';

const usage = (fileId: number, loads: number, atStart: boolean): FileUsage => ({
  fileId,
  path: `img/${fileId}.png`,
  loads,
  firstSeenAt: loads > 0 ? '2026-01-01T00:00:00.000Z' : null,
  atStart,
});

describe('the usage filters', () => {
  it('counts the files each filter keeps; a file without a record is never loaded', () => {
    const known = new Map(
      [usage(1, 4, true), usage(2, 1, false), usage(3, 0, false)].map((u) => [u.fileId, u]),
    );
    expect(usageCounts([1, 2, 3, 4], known)).toEqual({ all: 4, loaded: 2, atStart: 1, never: 2 });
  });

  it('labels a file by its usage and turns each filter into a files search condition', () => {
    expect(usageLabel(usage(1, 3, true))).toBe('At start · 3 loads');
    expect(usageLabel(usage(2, 1, false))).toBe('Loaded in play · 1 load');
    expect(usageLabel(undefined)).toBe('Never loaded yet');
    expect(usageFilterWhere('all')).toBeUndefined();
    expect(usageFilterWhere('loaded')).toEqual({ loads: { gt: 0 } });
    expect(usageFilterWhere('atStart')).toEqual({ atStart: true });
    expect(usageFilterWhere('never')).toEqual({ loads: 0 });
  });
});
