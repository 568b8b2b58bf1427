import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The Redis connection of the shared rate limits (REDIS_URL): every app server counts logins, signups
 * and failed passwords in the same place. Limits must never hold a request up, so a command fails at once while
 * Redis is unreachable (no offline queue, one try) and the limits fall back to this process's memory until it is
 * back (lib/limiters.ts: rate-limiter-flexible's insurance limiter). ioredis reconnects by itself. ioredis is
 * loaded only here, when REDIS_URL is set (a server without Redis never loads it).
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  // ioredis reports every failed reconnect: say it once per outage, and when it is over.
  let reachable = true;
  redis.on('error', (error: Error) => {
    if (!reachable) return;
    reachable = false;
    log.warn({ err: error }, 'Redis is unreachable: rate limits count in this process only until it is back');
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    log.info('Redis is reachable again: rate limits are shared again');
  });
  return redis;
}
