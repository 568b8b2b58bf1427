import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, type Game, type Readiness } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  type TestApp,
  type TestUser,
} from './helpers';
import { startS3Server, type S3Server } from './support/s3-server';

// An object-store outage (finding 5): the s3rver the S3 tests use is stopped mid-test and started again
// on the same port with the objects it held. While it is down, what needs storage answers 503
// STORAGE_UNAVAILABLE with its own message (it used to say "The database is unavailable"), the database's routes
// still work, and what a failed request had staged is removed by that request once the store is back (or by the
// services update), not an hour later.

describe('an object-store outage', () => {
  let s3: S3Server;
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ storage: s3.storageConfig });
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const newGame = (name: string) =>
    createGame(t, admin.token, { name, description: 'x', width: 480, height: 640 });
  const expectStorageUnavailable = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBe(503);
    expect(errorOf(response)).toEqual({
      statusCode: 503,
      name: 'ServiceUnavailableError',
      message: 'The file storage is unavailable; try again shortly.',
      code: errorCodes.storageUnavailable,
      details: [],
    });
  };

  it("answers 503 STORAGE_UNAVAILABLE (not DATABASE_UNAVAILABLE) to uploads and downloads; the rest works, and a deleted game's objects go once the store is back", async () => {
    const game = await newGame('Outage');
    const helper = new FormData();
    helper.append('file', new Blob(['layers']), 'art.psd');
    expect(
      (await call(t, 'POST', `/api/games/${game.id}/psd-files`, { token: admin.token, payload: helper }))
        .statusCode,
    ).toBe(200);
    const helpers = (await call(t, 'GET', `/api/games/${game.id}/psd-files`, { token: admin.token })).json<{
      files: { id: number }[];
    }>();
    const doomed = await newGame('Deleted while down');
    const uploaded = await call(t, 'POST', `/api/game/upload/${doomed.id}`, {
      token: admin.token,
      payload: filesForm([{ path: 'index.html', content: '<!doctype html>' }]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(s3.storedKeys(`games/${doomed.id}/`)).toHaveLength(1);

    await s3.stop();
    try {
      expectStorageUnavailable(
        await call(t, 'POST', `/api/game/upload/${game.id}`, {
          token: admin.token,
          payload: filesForm([{ path: 'index.html', content: '<!doctype html>' }]),
        }),
      );
      expectStorageUnavailable(
        await call(t, 'GET', `/api/games/${game.id}/psd-files/${helpers.files[0]!.id}`, {
          token: admin.token,
        }),
      );
      const ready = await call(t, 'GET', '/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json<Readiness>().checks).toMatchObject({ database: 'ok', storage: 'unavailable' });
      // The database's routes do not need the store; a delete keeps the objects to remove once it is back.
      expect(
        (await call(t, 'POST', '/api/games/filter', { token: admin.token, payload: {} })).statusCode,
      ).toBe(200);
      expect((await call(t, 'DELETE', `/api/games/${doomed.id}`, { token: admin.token })).statusCode).toBe(
        200,
      );
      expect(s3.storedKeys(`games/${doomed.id}/`)).toHaveLength(1);
    } finally {
      await s3.restart();
    }
    // Removed by the request's own retry, without waiting for the services update's hourly sweep.
    await expect
      .poll(() => s3.storedKeys(`games/${doomed.id}/`), { timeout: 60_000, interval: 200 })
      .toEqual([]);
    expect(
      (
        await call(t, 'POST', `/api/game/upload/${game.id}`, {
          token: admin.token,
          payload: filesForm([{ path: 'index.html', content: 'back' }]),
        })
      ).statusCode,
    ).toBe(200);
  }, 120_000);

  /**
   * A folder upload whose body the test writes part by part (light-my-request streams it to the route), so the
   * store can be stopped after the first file is stored and before the second arrives.
   */
  function streamedUpload(game: Game) {
    const boundary = 'outage-boundary';
    const body = new PassThrough();
    /** A fullPath field and its file, each part after its delimiter line; a part ends where the next delimiter begins. */
    const part = (path: string, content: string) =>
      `Content-Disposition: form-data; name="fullPath"\r\n\r\n${path}\r\n--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename="${path}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`;
    const response = t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: {
        authorization: `Bearer ${admin.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    return {
      response,
      // The first file with the delimiter after it, so the parser sees it end and the server stores it.
      first: () =>
        body.write(
          `--${boundary}\r\n${part('index.html', '<!doctype html><title>staged</title>')}--${boundary}\r\n`,
        ),
      rest: () => body.end(`${part('second.txt', 'never stored')}--${boundary}--\r\n`),
    };
  }

  it('an upload the outage cuts off answers 503, and the file it had staged is removed by that request once the store is back', async () => {
    const game = await newGame('Staged');
    const upload = streamedUpload(game);
    upload.first();
    // The first file is in the bucket (staged, not recorded) before the store goes down.
    await expect
      .poll(() => s3.storedKeys(`games/${game.id}/files/`), { timeout: 60_000, interval: 50 })
      .toHaveLength(1);
    await s3.stop();
    try {
      upload.rest();
      expectStorageUnavailable(await upload.response);
      expect(s3.storedKeys(`games/${game.id}/files/`)).toHaveLength(1);
    } finally {
      await s3.restart();
    }
    await expect
      .poll(() => s3.storedKeys(`games/${game.id}/files/`), { timeout: 60_000, interval: 200 })
      .toEqual([]);
    expect((await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json()).toEqual([]);
  }, 120_000);

  it('the services update removes what a failed request staged as soon as the store answers, whatever its age', async () => {
    const game = await newGame('Swept');
    const upload = streamedUpload(game);
    upload.first();
    await expect
      .poll(() => s3.storedKeys(`games/${game.id}/files/`), { timeout: 60_000, interval: 50 })
      .toHaveLength(1);
    await s3.stop();
    try {
      upload.rest();
      expectStorageUnavailable(await upload.response);
      // While the store is down the update cannot run either: it says so, as storage.
      expectStorageUnavailable(await call(t, 'GET', '/api/admin/update', { token: admin.token }));
    } finally {
      await s3.restart();
    }
    const update = await call(t, 'GET', '/api/admin/update', { token: admin.token });
    expect(update.statusCode, update.body).toBe(200);
    // The object is seconds old: the hourly orphan sweep would have kept it; the request's retry may have come first.
    expect(s3.storedKeys(`games/${game.id}/files/`)).toEqual([]);
  }, 120_000);
});
