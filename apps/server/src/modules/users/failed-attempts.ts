import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { limits } from '@reskin/contract';
import { tooManyAttempts } from '../../lib/errors';
import { limiter } from '../../lib/limiters';

type FailedAttemptsLimits = typeof limits.failedAttempts;

/**
 * Failed attempts per account: a growing delay after repeated wrong passwords, whatever address they
 * come from. After `freeFailures` failures within `windowSeconds`, each further failure makes the next attempt
 * of that key wait 1 s, 2 s, 4 s ... up to `maxDelaySeconds`; while it waits every attempt answers 429 (even with
 * the right password), and a success clears the count. The owner can always log in after at most the cap.
 *
 * The counters are shared by every app server through Redis, and fall back to this process's memory while it is
 * unreachable (lib/limiters.ts), so an outage never refuses or holds up a login.
 */
export class FailedAttempts {
  /** Failures per key within the window. */
  private readonly failures: RateLimiterAbstract;
  /** Keys that must wait: blocked for the current delay. */
  private readonly delays: RateLimiterAbstract;

  constructor(
    name: string,
    redis: Redis | undefined,
    private readonly rules: FailedAttemptsLimits = limits.failedAttempts,
  ) {
    this.failures = limiter(redis, {
      keyPrefix: `reskin-${name}-failures`,
      points: rules.freeFailures,
      duration: rules.windowSeconds,
    });
    this.delays = limiter(redis, { keyPrefix: `reskin-${name}-delay`, points: 1, duration: 1 });
  }

  /** Throws 429 RATE_LIMITED (with the seconds to wait) while the key is in its delay. */
  async assertNotWaiting(key: string): Promise<void> {
    const delay = await this.delays.get(key);
    // An expired record can still be there until its timer removes it: a non-positive msBeforeNext is no delay.
    if (delay && delay.consumedPoints > 1 && delay.msBeforeNext > 0) {
      throw tooManyAttempts(Math.ceil(delay.msBeforeNext / 1000));
    }
  }

  /** Counts a failure; from the `freeFailures`-th on, the next attempt waits (doubling up to the cap). */
  async fail(key: string): Promise<void> {
    const { consumedPoints: failures } = await this.failures.penalty(key);
    const over = failures - this.rules.freeFailures;
    if (over < 0) return;
    const seconds = Math.min(this.rules.maxDelaySeconds, this.rules.firstDelaySeconds * 2 ** over);
    await this.delays.block(key, seconds);
  }

  /** A success: the key starts again with no failures. */
  async succeed(key: string): Promise<void> {
    await Promise.all([this.failures.delete(key), this.delays.delete(key)]);
  }
}
