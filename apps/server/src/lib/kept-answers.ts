import { LRUCache } from 'lru-cache';

/**
 * Answers kept for `ms` milliseconds, at most `max` of them (the least recently used go first when there are
 * more), or undefined when `ms` is 0: that keeps nothing (lru-cache's ttl 0 would keep answers for ever). The
 * clock is Date.now(), read at every check (ttlResolution 0), so a test that fakes Date alone moves it.
 */
export function keptFor<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  ms: number,
  max: number,
): LRUCache<K, V> | undefined {
  if (!(ms > 0)) return undefined;
  return new LRUCache<K, V>({ max, ttl: ms, ttlResolution: 0, perf: { now: () => Date.now() } });
}
