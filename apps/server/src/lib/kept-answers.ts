import { LRUCache } from 'lru-cache';

/**
 * Answers kept for `ms` milliseconds, at most `max` of them (the least recently used go first when there are more):
 * an lru-cache; undefined when `ms` is 0, which keeps nothing (lru-cache's ttl 0 would keep answers for ever).
 *
 * An answer is kept while less than `ms` have passed since it was asked (`set`'s `start`: the cache's `perf.now()`
 * read before asking; without it, since it was set); at `ms` it is asked again. lru-cache keeps an entry while its
 * age is at most its ttl, and ages are whole milliseconds (Date.now()), so the cache's clock counts half
 * milliseconds and the ttl is `2 * ms - 1` of them (`ms` rounded up): an age under `ms` is within it, an age of
 * `ms` is not. The clock is read at every check (ttlResolution 0: lru-cache would otherwise reuse a reading for a
 * millisecond, forgotten by a real timer), and it is Date.now(), so a test that fakes only Date moves it.
 */
export function keptFor<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(ms: number, max: number): LRUCache<K, V> | undefined {
  if (!(ms > 0)) return undefined;
  return new LRUCache<K, V>({
    max,
    ttl: 2 * Math.ceil(ms) - 1,
    ttlResolution: 0,
    perf: { now: () => 2 * Date.now() },
  });
}
