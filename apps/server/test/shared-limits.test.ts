import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { errorCodes, limits } from '@reskin/contract';
import {
  createTestApp,
  createUser,
  errorOf,
  signupBody,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis';

const { freeFailures } = limits.failedAttempts;
/** The Redis every machine here runs (the brief); the limits' keys of each test are its own (a new account, a new address). */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** An address no other test (nor the other database's run, at the same time) uses. */
function freshAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function loginFrom(t: TestApp, address: string, email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { email, password },
    headers: { 'x-forwarded-for': address },
  });
}

describe(`shared rate limits in Redis on ${testDb}`, () => {
  let a: TestApp;
  let b: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    a = await createTestApp({ redisUrl, trustProxy: true, authRateLimitMax: 4 });
    // A second app server on the same database and the same Redis.
    b = await createTestApp(
      { redisUrl, trustProxy: true, authRateLimitMax: 4 },
      { dataDir: a.config.dataDir, schema: a.schema },
    );
    user = await createUser(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('[API-1] wrong passwords for one account count across both servers: after the free failures, alternating between them, the next attempt waits on either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < freeFailures; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push((await loginFrom(server, freshAddress(), user.email, `wrong-${i}`)).statusCode);
    }
    expect(statuses).toEqual(Array(freeFailures).fill(401));
    for (const server of [a, b]) {
      const waiting = await loginFrom(server, freshAddress(), user.email, user.password);
      expect(waiting.statusCode).toBe(429);
      expect(errorOf(waiting).code).toBe(errorCodes.rateLimited);
    }
  });

  it('[API-1] the per-address limit of login and signup counts across both servers', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? a : b;
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/user/signup',
        payload: signupBody(),
        headers: { 'x-forwarded-for': address },
      });
      statuses.push(response.statusCode);
    }
    // AUTH_RATE_LIMIT_MAX is 4 a minute on each: together they allow 4, not 8.
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
  });
});

/** How many times this app's own log said something containing `text` at this level (the spy of its logger's method). */
function said(spy: MockInstance, text: string): number {
  return spy.mock.calls.filter((args: unknown[]) =>
    args.some((arg) => typeof arg === 'string' && arg.includes(text)),
  ).length;
}
const unreachable = 'Redis is unreachable';
const reachableAgain = 'Redis is reachable again';

/** `count` logins for unknown emails (401 each, one failure per email) from one address; their statuses. */
async function loginsFrom(t: TestApp, address: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++)
    statuses.push(
      (await loginFrom(t, address, `nobody-${randomInt(1e9)}@example.com`, 'some-password')).statusCode,
    );
  return statuses;
}

describe(`rate limits when Redis stops and comes back on ${testDb}`, () => {
  let redis: PrivateRedis;
  let a: TestApp;
  let b: TestApp;
  const logs: { warn: MockInstance; info: MockInstance }[] = [];
  const max = 4;

  beforeAll(async () => {
    // A Redis of this test's own, killed and started again below (the shared one on 6379 stays as it is).
    redis = await startPrivateRedis();
    a = await createTestApp({ redisUrl: redis.url, trustProxy: true, authRateLimitMax: max });
    b = await createTestApp(
      { redisUrl: redis.url, trustProxy: true, authRateLimitMax: max },
      { dataDir: a.config.dataDir, schema: a.schema },
    );
    for (const t of [a, b])
      logs.push({ warn: vi.spyOn(t.app.log, 'warn'), info: vi.spyOn(t.app.log, 'info') });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.destroy();
  });

  it('[API-1] with Redis up the per-address limit is shared; killed, each server counts alone (429 with Retry-After on each), per address and per account; back, shared again; each change logged once', async () => {
    const user = await createUser(a);

    // Up: AUTH_RATE_LIMIT_MAX is 4 a minute on each; alternating, the two servers allow 4 together.
    const shared = freshAddress();
    expect([
      ...(await loginsFrom(a, shared, 2)),
      ...(await loginsFrom(b, shared, 2)),
      ...(await loginsFrom(a, shared, 1)),
    ]).toEqual([401, 401, 401, 401, 429]);

    await redis.kill();
    // Each server notices the outage (ioredis reports the failed reconnects) and says so once.
    for (const { warn } of logs)
      await expect.poll(() => said(warn, unreachable), { timeout: 20_000 }).toBe(1);

    // Down: one address gets 4 a minute on each server, counted in that server's memory.
    const alone = freshAddress();
    for (const t of [a, b]) {
      expect(await loginsFrom(t, alone, max)).toEqual(Array(max).fill(401));
      const limited = await loginFrom(t, alone, user.email, user.password);
      expect(limited.statusCode).toBe(429);
      expect(errorOf(limited)).toMatchObject({
        statusCode: 429,
        name: 'TooManyRequestsError',
        code: errorCodes.rateLimited,
      });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }

    // The per-account count falls back too: the free failures on one server make the next attempt wait there.
    for (let i = 0; i < freeFailures; i++)
      expect((await loginFrom(a, freshAddress(), user.email, `wrong-${i}`)).statusCode).toBe(401);
    expect((await loginFrom(a, freshAddress(), user.email, user.password)).statusCode).toBe(429);
    // The other server has seen none of them while each counts alone.
    expect((await loginFrom(b, freshAddress(), user.email, user.password)).statusCode).toBe(200);
    // Once per outage, not per request.
    for (const { warn } of logs) expect(said(warn, unreachable)).toBe(1);

    await redis.start();
    for (const { info } of logs)
      await expect.poll(() => said(info, reachableAgain), { timeout: 20_000 }).toBe(1);

    // Back: shared again (the new Redis starts empty).
    const again = freshAddress();
    expect([
      ...(await loginsFrom(b, again, 2)),
      ...(await loginsFrom(a, again, 2)),
      ...(await loginsFrom(b, again, 1)),
    ]).toEqual([401, 401, 401, 401, 429]);
    for (const { warn, info } of logs) {
      expect(said(warn, unreachable)).toBe(1);
      expect(said(info, reachableAgain)).toBe(1);
    }
  });
});

describe(`rate limits while Redis is unreachable on ${testDb}`, () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:1', trustProxy: true, authRateLimitMax: 4 });
  });
  afterAll(async () => t.close());

  it('[API-1] the per-address limit of login holds in this process (it was off)', async () => {
    const address = freshAddress();
    expect(await loginsFrom(t, address, 5)).toEqual([401, 401, 401, 401, 429]);
  });

  it('[API-1] logins still work, and the per-account limit still holds in this process', async () => {
    const user = await createUser(t);
    expect((await loginFrom(t, freshAddress(), user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < freeFailures; i++) {
      expect((await loginFrom(t, freshAddress(), user.email, `wrong-${i}`)).statusCode).toBe(401);
    }
    expect((await loginFrom(t, freshAddress(), user.email, user.password)).statusCode).toBe(429);
  });
});
