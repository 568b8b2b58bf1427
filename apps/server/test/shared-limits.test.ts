import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, limits } from '@reskin/contract';
import { createTestApp, createUser, errorOf, signupBody, testDb, type TestApp, type TestUser } from './helpers';

const { freeFailures } = limits.failedAttempts;
/** The Redis every machine here runs (the brief); the limits' keys of each test are its own (a new account, a new address). */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** An address no other test (nor the other database's run, at the same time) uses. */
function freshAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function loginFrom(t: TestApp, address: string, email: string, password: string) {
  return t.app.inject({ method: 'POST', url: '/api/user/login', payload: { email, password }, headers: { 'x-forwarded-for': address } });
}

describe(`shared rate limits in Redis on ${testDb} (issue 14)`, () => {
  let a: TestApp;
  let b: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    a = await createTestApp({ redisUrl, trustProxy: true, authRateLimitMax: 4 });
    // A second app server on the same database and the same Redis.
    b = await createTestApp({ redisUrl, trustProxy: true, authRateLimitMax: 4 }, { dataDir: a.config.dataDir, schema: a.schema });
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

describe(`rate limits while Redis is unreachable on ${testDb} (issue 14)`, () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:1', trustProxy: true });
  });
  afterAll(async () => t.close());

  it('[API-1] logins still work, and the per-account limit still holds in this process', async () => {
    const user = await createUser(t);
    expect((await loginFrom(t, freshAddress(), user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < freeFailures; i++) {
      expect((await loginFrom(t, freshAddress(), user.email, `wrong-${i}`)).statusCode).toBe(401);
    }
    expect((await loginFrom(t, freshAddress(), user.email, user.password)).statusCode).toBe(429);
  });
});
