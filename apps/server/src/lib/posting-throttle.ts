import type { Redis } from 'ioredis';
import { BurstyRateLimiter } from 'rate-limiter-flexible';
import { limits } from '@reskin/contract';
import { tooManyRequests } from './errors';
import { limiter } from './limiters';

/** A steady rate and the burst allowed beyond it (limits.posting; the server's config may raise them). */
export interface PostingRate {
  perMinute: number;
  burst: number;
}

/**
 * How fast one account may do one kind of post (notes, finishes: decision 0044): `perMinute` steadily, and a burst
 * of `burst` more that comes back limits.posting.burstMinutes after its first use (rate-limiter-flexible's
 * BurstyRateLimiter over two counters of lib/limiters.ts: in Redis with REDIS_URL, shared by every server).
 */
export class PostingThrottle {
  private readonly limit: BurstyRateLimiter;

  constructor(
    redis: Redis | undefined,
    keyPrefix: string,
    rate: PostingRate,
    /** The 429's message for a wait of so many seconds (the contract's throttleMessages). */
    private readonly message: (seconds: number) => string,
  ) {
    this.limit = new BurstyRateLimiter(
      limiter(redis, { keyPrefix, points: rate.perMinute, duration: 60 }),
      limiter(redis, {
        keyPrefix: `${keyPrefix}-burst`,
        points: rate.burst,
        duration: limits.posting.burstMinutes * 60,
      }),
    );
  }

  /** Counts one post of the account; 429 RATE_LIMITED with the seconds to wait (Retry-After) when none is left. */
  async consume(userId: number): Promise<void> {
    try {
      await this.limit.consume(String(userId));
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const seconds = Math.max(
        1,
        Math.ceil(((rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000) / 1000),
      );
      throw tooManyRequests(this.message(seconds), seconds);
    }
  }
}
