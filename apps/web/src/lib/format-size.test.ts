import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size';

describe('formatSize', () => {
  it('shows whole bytes below 1 KB, a 5-byte file as 5 B', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(5)).toBe('5 B');
    expect(formatSize(1023)).toBe('1023 B');
  });

  it('shows KB, MB and GB (1024-based) with at most one decimal', () => {
    expect(formatSize(1024)).toBe('1 KB');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(10 * 1024 + 100)).toBe('10.1 KB');
    expect(formatSize(3.4 * 1024 * 1024)).toBe('3.4 MB');
    expect(formatSize(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatSize(2 * 1024 ** 3)).toBe('2 GB');
  });

  it('goes up a unit when the rounding reaches 1024', () => {
    expect(formatSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatSize(1024 * 1024 - 200)).toBe('1023.8 KB');
  });

  it('shows a dash for a size that is not one', () => {
    expect(formatSize(-1)).toBe('—');
    expect(formatSize(Number.NaN)).toBe('—');
  });
});
