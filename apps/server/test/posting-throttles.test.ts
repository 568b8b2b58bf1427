import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCodes, limits, throttleMessages } from '@reskin/contract';
import { call, createTestApp, errorOf, testDb, type TestApp } from './helpers';
import { finish, newVersion, reviewWorld, type ReviewWorld } from './support/review-world';

/**
 * Decision 0044: notes (answers too) and "I Finished My Game" are throttled per account, a burst and then a steady
 * rate, through lib/limiters.ts (in memory here; in Redis, shared by two servers, below). The clock is faked (Date
 * only): the counters read Date.now().
 */
const { notes, finishes } = limits.posting;

/** A 429 of a throttle: RATE_LIMITED, the wait in Retry-After and error.retryAfter, the contract's words for it. */
function expectThrottled(response: Awaited<ReturnType<typeof call>>, message: (seconds: number) => string) {
  expect(response.statusCode, response.body).toBe(429);
  const error = errorOf(response) as ReturnType<typeof errorOf> & { retryAfter?: number };
  expect(error.code).toBe(errorCodes.rateLimited);
  expect(error.retryAfter).toBeGreaterThanOrEqual(1);
  // The steady rate comes back within the minute: the wait is never the burst's ten minutes.
  expect(error.retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['retry-after']).toBe(String(error.retryAfter));
  expect(error.message).toBe(message(error.retryAfter!));
}

describe(`decision 0044: posting throttles (${testDb})`, () => {
  let t: TestApp;
  let w: ReviewWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await reviewWorld(t);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (token: string, versionId: number, text: string, replyTo?: number) =>
    call(t, 'POST', `/api/game-versions/${versionId}/notes`, {
      token,
      payload: { text, ...(replyTo !== undefined && { replyTo }) },
    });

  it('an artist writing notes and answers gets a burst, then 429 RATE_LIMITED saying when to try again; the steady rate lets the next ones in a minute later; others are not held up', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    const version = await newVersion(t, w, 'Chatty');
    const first = await post(w.artist.token, version.id, 'Note 0');
    expect(first.statusCode, first.body).toBe(201);
    const noteId = first.json<{ id: number }>().id;
    // Answers count with notes: every other post answers the first note.
    for (let i = 1; i < notes.perMinute + notes.burst; i += 1) {
      const posted = await post(w.artist.token, version.id, `Note ${i}`, i % 2 === 0 ? noteId : undefined);
      expect(posted.statusCode, posted.body).toBe(201);
    }
    expectThrottled(await post(w.artist.token, version.id, 'One too many'), throttleMessages.notes);
    expectThrottled(
      await post(w.artist.token, version.id, 'An answer too many', noteId),
      throttleMessages.notes,
    );
    // Per account: a reviewer still writes.
    expect((await post(w.admin.token, version.id, 'Reviewer here')).statusCode).toBe(201);

    vi.setSystemTime(Date.now() + 61_000);
    for (let i = 0; i < notes.perMinute; i += 1)
      expect((await post(w.artist.token, version.id, `Later ${i}`)).statusCode).toBe(201);
    // The burst is not back yet: only the steady rate.
    expectThrottled(await post(w.artist.token, version.id, 'Still too many'), throttleMessages.notes);
  });

  it('"I Finished My Game" pressed again and again gets a burst, then 429 RATE_LIMITED saying when to press again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    const version = await newVersion(t, w, 'Eager');
    for (let i = 0; i < finishes.perMinute + finishes.burst; i += 1)
      await finish(t, w.artist.token, version.id);
    expectThrottled(
      await call(t, 'POST', '/api/game-versions/done', {
        token: w.artist.token,
        payload: { id: version.id },
      }),
      throttleMessages.finishes,
    );
    vi.setSystemTime(Date.now() + 61_000);
    await finish(t, w.artist.token, version.id);
  });
});

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe.runIf(testDb === 'postgres')(
  'decision 0044: the note throttle in Redis, shared by two servers (PostgreSQL)',
  () => {
    let a: TestApp;
    let b: TestApp;
    let w: ReviewWorld;
    beforeAll(async () => {
      a = await createTestApp({ redisUrl });
      b = await createTestApp({ redisUrl }, { dataDir: a.config.dataDir, schema: a.schema });
      w = await reviewWorld(a);
      // Account ids start again in every test schema: a run a few minutes ago may have left counters of these ids.
      const redis = new Redis(redisUrl);
      await redis.del(`reskin-notes:${w.artist.id}`, `reskin-notes-burst:${w.artist.id}`);
      redis.disconnect();
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('notes posted alternately through two servers count together: the one past the burst is refused on either', async () => {
      const version = await newVersion(a, w, 'Shared');
      for (let i = 0; i < notes.perMinute + notes.burst; i += 1) {
        const server = i % 2 === 0 ? a : b;
        const posted = await call(server, 'POST', `/api/game-versions/${version.id}/notes`, {
          token: w.artist.token,
          payload: { text: `Shared ${i}` },
        });
        expect(posted.statusCode, posted.body).toBe(201);
      }
      for (const server of [a, b]) {
        expectThrottled(
          await call(server, 'POST', `/api/game-versions/${version.id}/notes`, {
            token: w.artist.token,
            payload: { text: 'Too many' },
          }),
          throttleMessages.notes,
        );
      }
    });
  },
);
