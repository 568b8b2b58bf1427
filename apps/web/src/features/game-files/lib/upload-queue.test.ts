import { describe, expect, it } from 'vitest';
import { runQueue } from './upload-queue';

describe('runQueue', () => {
  it('handles every item once, never more than `concurrency` at a time', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await runQueue([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, item % 3));
      seen.push(item);
      running--;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it('finishes at once for no items', async () => {
    await expect(runQueue([], 3, async () => undefined)).resolves.toBeUndefined();
  });
});
