import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LimiterOptions {
  /** Names the counters (in Redis: the start of their keys). */
  keyPrefix: string;
  points: number;
  /** Seconds a key's count lasts from its first point. */
  duration: number;
}

/**
 * The one definition of where every limit counts: with Redis (REDIS_URL) in Redis, shared by
 * every app server; while Redis is unreachable, and without it, in this process's memory. The fallback is
 * rate-limiter-flexible's insurance limiter: a command that fails (or finds the connection not ready) is answered
 * by the in-memory limiter with the same options instead, so an outage never lifts a limit nor holds a request up;
 * each server then counts alone until Redis is back (lib/redis.ts logs both once). Used by the per-address limit
 * of login and signup (plugins/rate-limit.ts) and the per-account failed passwords (lib/failed-attempts.ts).
 */
export function limiter(redis: Redis | undefined, options: LimiterOptions): RateLimiterAbstract {
  const memory = new RateLimiterMemory(options);
  if (!redis) return memory;
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}
