import type {
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
  RateLimitPluginOptions,
} from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../lib/errors';
import { limiter } from '../lib/limiters';

/** What @fastify/rate-limit hands a store's child(): the route's merged limit options and the route itself. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * The options of @fastify/rate-limit (the per-address limit of login and signup, set per route): its counting goes
 * to lib/limiters.ts, so it is shared in Redis and falls back to this server's memory while Redis is unreachable,
 * like the per-account limits (with the plugin's own Redis store and skipOnError, an outage lifted the
 * limit altogether). The plugin keeps everything else: the per-route maxima, the 429 envelope, Retry-After and the
 * X-RateLimit headers.
 */
export function rateLimitOptions(redis: Redis | undefined): RateLimitPluginOptions {
  return {
    global: false,
    store: limiterStore(redis, 'reskin-rate-limit'),
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Too many requests; try again in ${context.after}.`),
  };
}

/**
 * A store of @fastify/rate-limit over rate-limiter-flexible: each request adds a point to its key's count (penalty:
 * the plugin itself compares the count with the route's max), and answers the count and the milliseconds left in
 * the key's window. One limiter per window length, as a route's options give it.
 */
function limiterStore(redis: Redis | undefined, prefix: string): FastifyRateLimitStoreCtor {
  class LimiterStore implements FastifyRateLimitStore {
    private readonly limiters = new Map<number, RateLimiterAbstract>();

    /** The plugin makes the first one with its options (unused: each route's come with incr), child() the others. */
    constructor(
      _options?: unknown,
      private readonly keyPrefix: string = prefix,
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      let counter = this.limiters.get(timeWindow);
      if (!counter) {
        counter = limiter(redis, {
          keyPrefix: this.keyPrefix,
          points: max,
          duration: Math.max(1, Math.ceil(timeWindow / 1000)),
        });
        this.limiters.set(timeWindow, counter);
      }
      counter.penalty(key).then(
        (result) => callback(null, { current: result.consumedPoints, ttl: result.msBeforeNext }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** Each route counts apart: its method and URL join the prefix. */
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const route = (options as ChildOptions).routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      return new LimiterStore(undefined, `${this.keyPrefix}-${method}${route?.url ?? ''}`);
    }
  }
  return LimiterStore;
}
