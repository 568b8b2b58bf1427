import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GameStatus,
  RoleType,
  errorCodes,
  validationMessages,
  type Game,
  type GameFile,
  type GamePath,
  type User,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  login,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

/**
 * Revocation (decision 0013): play links stop working once their user may no longer see the game, and
 * a password change, an admin's reset, a role change and a suspension end every session of the user.
 */

async function readyGame(t: TestApp, admin: TestUser, name: string): Promise<Game> {
  const created = (
    await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name, description: 'x', width: 480, height: 640 },
    })
  ).json<Game>();
  const body = new FormData();
  for (const [path, content] of [
    ['index.html', '<!doctype html><p>hi'],
    ['hero.png', await solidPng(16, 16, 'orange')],
  ] as const) {
    body.append('fullPath', path);
    body.append('file', new Blob([content]), path);
  }
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/api/game/upload/${created.id}`,
    headers: { authorization: `Bearer ${admin.token}` },
    payload: body,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const files = (await call(t, 'GET', `/api/games/${created.id}/files`, { token: admin.token })).json<
    GameFile[]
  >();
  await call(
    t,
    'PATCH',
    `/api/games/${created.id}/files/${files.find((f) => f.path === 'index.html')!.fileId}/index`,
    { token: admin.token },
  );
  await call(t, 'GET', `/api/games/${created.id}/generate`, { token: admin.token });
  await t.generation.idle();
  const game = (await call(t, 'GET', `/api/games/${created.id}`, { token: admin.token })).json<Game>();
  expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
  return game;
}

/** Assigns the game to the user (active); the user-game's id. */
async function assign(t: TestApp, userId: number, gameId: number): Promise<number> {
  const now = nowIso();
  const row = await t.database.db
    .insertInto('userGames')
    .values({ userId, gameId, userGameTypeId: 1, jobPrice: 10, isActive: 1, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The user's main play URL of the game (the original for admins, the watermarked view for others). */
async function playUrl(t: TestApp, token: string, gameId: number): Promise<string> {
  const response = await call(t, 'GET', `/api/games/${gameId}/path/`, { token });
  expect(response.statusCode, response.body).toBe(200);
  return new URL(response.json<GamePath>().orjFile).pathname;
}

function play(t: TestApp, url: string) {
  return t.playApp.inject({ method: 'GET', url });
}

function expectPlayForbidden(response: Awaited<ReturnType<typeof play>>) {
  expect(response.statusCode).toBe(403);
  expect(errorOf(response)).toMatchObject({ statusCode: 403, code: errorCodes.forbidden });
}

function expectUnauthorized(response: Awaited<ReturnType<typeof call>>) {
  expect(response.statusCode).toBe(401);
  expect(errorOf(response)).toMatchObject({ statusCode: 401, code: errorCodes.unauthorized });
}

describe(`[API-7] play links end with access on ${testDb} (no cache)`, () => {
  let t: TestApp;
  let admin: TestUser;
  let game: Game;

  beforeAll(async () => {
    t = await createTestApp({ playAccessCacheMs: 0 });
    admin = await createUser(t, RoleType.Admin);
    game = await readyGame(t, admin, 'Revoked');
  });
  afterAll(async () => t.close());

  it("a suspended user's play link answers 403", async () => {
    const artist = await createUser(t);
    await assign(t, artist.id, game.id);
    const url = await playUrl(t, artist.token, game.id);
    expect((await play(t, url)).statusCode).toBe(200);
    expect((await call(t, 'DELETE', '/api/user/disable', { token: artist.token })).statusCode).toBe(204);
    expectPlayForbidden(await play(t, url));
  });

  it("an unassigned user's play link answers 403: the assignment made inactive, or deleted", async () => {
    const inactive = await createUser(t);
    const deleted = await createUser(t);
    await assign(t, inactive.id, game.id);
    await assign(t, deleted.id, game.id);
    const inactiveUrl = await playUrl(t, inactive.token, game.id);
    const deletedUrl = await playUrl(t, deleted.token, game.id);
    expect((await play(t, inactiveUrl)).statusCode).toBe(200);
    expect((await play(t, deletedUrl)).statusCode).toBe(200);

    await t.database.db
      .updateTable('userGames')
      .set({ isActive: 0 })
      .where('userId', '=', inactive.id)
      .execute();
    await t.database.db.deleteFrom('userGames').where('userId', '=', deleted.id).execute();
    expectPlayForbidden(await play(t, inactiveUrl));
    expectPlayForbidden(await play(t, deletedUrl));
  });

  it("a demoted admin's links (the unwatermarked original, the files root) answer 403", async () => {
    const other = await createUser(t, RoleType.Admin);
    const url = await playUrl(t, other.token, game.id);
    const root = (await call(t, 'GET', `/api/games/${game.id}/files-root`, { token: other.token })).json<{
      rootPath: string;
    }>().rootPath;
    const rootUrl = `${new URL(root).pathname}hero.png`;
    expect((await play(t, url)).statusCode).toBe(200);
    expect((await play(t, rootUrl)).statusCode).toBe(200);
    expect(
      (await call(t, 'PUT', `/api/user/role/${other.id}/${RoleType.User}`, { token: admin.token }))
        .statusCode,
    ).toBe(204);
    expectPlayForbidden(await play(t, url));
    expectPlayForbidden(await play(t, rootUrl));
    // Even assigned to the game, a user gets no original.
    await assign(t, other.id, game.id);
    expectPlayForbidden(await play(t, url));
  });

  it('an admin demoted in the database (no token change) loses the original view by role; assigned, still no original', async () => {
    const other = await createUser(t, RoleType.Admin);
    const url = await playUrl(t, other.token, game.id);
    expect((await play(t, url)).statusCode).toBe(200);
    await t.database.db
      .updateTable('users')
      .set({ roleTypeId: RoleType.User })
      .where('id', '=', other.id)
      .execute();
    expectPlayForbidden(await play(t, url));
    await assign(t, other.id, game.id);
    expectPlayForbidden(await play(t, url));
    // The watermarked view of the same session's new link works for the assigned user.
    expect((await play(t, await playUrl(t, other.token, game.id))).statusCode).toBe(200);
  });

  it("a user's play links end with a password change; the new session's links work", async () => {
    const artist = await createUser(t);
    await assign(t, artist.id, game.id);
    const url = await playUrl(t, artist.token, game.id);
    const changed = await call(t, 'PUT', '/api/user/update/password', {
      token: artist.token,
      payload: { oldPassword: artist.password, newPassword: 'N3w-password!' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectPlayForbidden(await play(t, url));
    const fresh = changed.json<{ token: string }>().token;
    expect((await play(t, await playUrl(t, fresh, game.id))).statusCode).toBe(200);
  });
});

describe(`[API-7] play access is cached for PLAY_ACCESS_CACHE_SECONDS at most on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let game: Game;

  beforeAll(async () => {
    t = await createTestApp({ playAccessCacheMs: 2000 });
    admin = await createUser(t, RoleType.Admin);
    game = await readyGame(t, admin, 'Cached');
  });
  afterAll(async () => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a revoked link may work until the cached answer is 2 s old, then answers 403', async () => {
    const artist = await createUser(t);
    await assign(t, artist.id, game.id);
    const url = await playUrl(t, artist.token, game.id);
    // Only Date is faked: the clock the cache (and the token's expiry) reads, moved by hand.
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await play(t, url)).statusCode).toBe(200);
    await t.database.db
      .updateTable('userGames')
      .set({ isActive: 0 })
      .where('userId', '=', artist.id)
      .execute();
    vi.advanceTimersByTime(1999);
    expect((await play(t, url)).statusCode).toBe(200);
    vi.advanceTimersByTime(2);
    expectPlayForbidden(await play(t, url));
  });

  it("a session ended by another server (in the database) may work until this server's copy of the user is 2 s old, then answers 401", async () => {
    const user = await createUser(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(200);
    await t.database.db.updateTable('users').set({ activated: 0 }).where('id', '=', user.id).execute();
    vi.advanceTimersByTime(1999);
    expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(200);
    vi.advanceTimersByTime(2);
    expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
  });
});

/** A way to revoke an artist's access to the game, made through the API of one server (`t`). */
type Revocation = (
  t: TestApp,
  admin: TestUser,
  artist: TestUser,
  userGameId: number,
) => Promise<{ statusCode: number; body: string }>;

const revocations: [string, Revocation][] = [
  [
    'their own password change',
    (t, _admin, artist) =>
      call(t, 'PUT', '/api/user/update/password', {
        token: artist.token,
        payload: { oldPassword: artist.password, newPassword: 'N3w-password!' },
      }),
  ],
  [
    "an admin's password reset",
    (t, admin, artist) =>
      call(t, 'PUT', '/api/user/update/password', { token: admin.token, payload: { userId: artist.id } }),
  ],
  [
    'a role change',
    (t, admin, artist) =>
      call(t, 'PUT', `/api/user/role/${artist.id}/${RoleType.Demo}`, { token: admin.token }),
  ],
  ['a suspension', (t, _admin, artist) => call(t, 'DELETE', '/api/user/disable', { token: artist.token })],
  [
    'their own email change',
    (t, _admin, artist) =>
      call(t, 'PUT', '/api/user/update', {
        token: artist.token,
        payload: {
          username: artist.username,
          email: `moved-${artist.id}@example.com`,
          currentPassword: artist.password,
        },
      }),
  ],
  [
    'Remove Access (the assignment made inactive)',
    (t, admin, _artist, userGameId) =>
      call(t, 'DELETE', `/api/user-games/${userGameId}/changeActivity`, { token: admin.token }),
  ],
  [
    'the assignment deleted',
    (t, admin, _artist, userGameId) =>
      call(t, 'DELETE', `/api/user-games/${userGameId}`, { token: admin.token }),
  ],
  [
    'the user deleted',
    (t, admin, artist) => call(t, 'DELETE', `/api/user/delete/${artist.id}`, { token: admin.token }),
  ],
];

// The server that makes a change forgets what it keeps about the user at once, so their play links end
// there with the change; another server keeps its own answer until it is PLAY_ACCESS_CACHE_SECONDS old. The cache
// time is a minute, far longer than any of these tests, so a 403 on the first server is not the cache running out.
describe(`[API-7] play links end at once on the server that revoked them, within the cache time on another, on ${testDb}`, () => {
  const cacheMs = 60_000;
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let game: Game;

  beforeAll(async () => {
    a = await createTestApp({ playAccessCacheMs: cacheMs });
    admin = await createUser(a, RoleType.Admin);
    game = await readyGame(a, admin, 'Forgotten');
    // A second server on the same database, started once the game is ready (on SQLite a start fails unfinished jobs).
    b = await createTestApp({ playAccessCacheMs: cacheMs }, { dataDir: a.config.dataDir, schema: a.schema });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(revocations)('after %s', async (_name, revoke) => {
    // Only Date is faked: the clock the caches read, moved by hand below.
    vi.useFakeTimers({ toFake: ['Date'] });
    const artist = await createUser(a);
    const userGameId = await assign(a, artist.id, game.id);
    const url = await playUrl(a, artist.token, game.id);
    // Both servers let the link play, and keep that answer.
    expect((await play(a, url)).statusCode).toBe(200);
    expect((await play(b, url)).statusCode).toBe(200);

    const revoked = await revoke(a, admin, artist, userGameId);
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    // At once on the server that made the change, with its cached answer still fresh.
    expectPlayForbidden(await play(a, url));
    // The other server's answer is fresh too: it plays until that answer is the cache time old, then refuses.
    expect((await play(b, url)).statusCode).toBe(200);
    vi.advanceTimersByTime(cacheMs + 1);
    expectPlayForbidden(await play(b, url));
  });
});

// With and without the user cache: a change made through this server ends the sessions at once either way.
describe.each([0, 60_000])(
  `[API-1] sessions end with a password change, a reset, a role change, a suspension and an email change on ${testDb} (users kept %i ms)`,
  (cacheMs) => {
    let t: TestApp;
    let admin: TestUser;

    beforeAll(async () => {
      t = await createTestApp({ playAccessCacheMs: cacheMs });
      admin = await createUser(t, RoleType.Admin);
    });
    afterAll(async () => t.close());

    /** A second session of the user (another browser). */
    async function secondSession(user: TestUser): Promise<string> {
      return (await login(t, user.email, user.password)).json<{ token: string }>().token;
    }

    it('after changing their own password the old tokens are 401 and the answered new token works', async () => {
      const user = await createUser(t);
      const other = await secondSession(user);
      const changed = await call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword: user.password, newPassword: 'N3w-password!' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const answer = changed.json<{ password: string | null; token: string }>();
      expect(answer.password).toBeNull();
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
      const me = await call(t, 'GET', '/api/user/me', { token: answer.token });
      expect(me.statusCode).toBe(200);
      expect(me.json<User>().id).toBe(user.id);
      expect((await login(t, user.email, 'N3w-password!')).statusCode).toBe(200);
    });

    it("after an admin's reset the user's old tokens are 401; the admin's session goes on", async () => {
      const user = await createUser(t);
      const other = await secondSession(user);
      const reset = await call(t, 'PUT', '/api/user/update/password', {
        token: admin.token,
        payload: { userId: user.id },
      });
      expect(reset.statusCode).toBe(200);
      const password = reset.json<{ password: string }>().password;
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
      expect((await call(t, 'GET', '/api/user/me', { token: admin.token })).statusCode).toBe(200);
      const fresh = (await login(t, user.email, password)).json<{ token: string }>().token;
      expect((await call(t, 'GET', '/api/user/me', { token: fresh })).statusCode).toBe(200);
    });

    it('after a role change the old tokens are 401', async () => {
      const user = await createUser(t);
      expect(
        (await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.Demo}`, { token: admin.token }))
          .statusCode,
      ).toBe(204);
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
      const fresh = (await login(t, user.email, user.password)).json<{ token: string }>().token;
      expect((await call(t, 'GET', '/api/user/me', { token: fresh })).json<User>().roleTypeId).toBe(
        RoleType.Demo,
      );
    });

    it('after a suspension the old tokens stay 401, even once the admin re-activates the account', async () => {
      const user = await createUser(t);
      const other = await secondSession(user);
      expect((await call(t, 'DELETE', '/api/user/disable', { token: user.token })).statusCode).toBe(204);
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
      expect((await call(t, 'PUT', `/api/user/activate/${user.id}`, { token: admin.token })).statusCode).toBe(
        204,
      );
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
      const fresh = (await login(t, user.email, user.password)).json<{ token: string }>().token;
      expect((await call(t, 'GET', '/api/user/me', { token: fresh })).statusCode).toBe(200);
    });

    it('a change of the username alone keeps every session (the answered token carries the same version)', async () => {
      const user = await createUser(t);
      const other = await secondSession(user);
      const updated = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username: `${user.username}x`, email: user.email.toUpperCase() },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(200);
      expect((await call(t, 'GET', '/api/user/me', { token: other })).statusCode).toBe(200);
      expect(
        (await call(t, 'GET', '/api/user/me', { token: updated.json<{ token: string }>().token })).statusCode,
      ).toBe(200);
    });

    it('a new email needs the current password: none is 422, a wrong one 403, and neither changes anything', async () => {
      const user = await createUser(t);
      const other = await secondSession(user);
      const email = `moved-${user.id}@example.com`;
      for (const currentPassword of [undefined, '']) {
        const missing = await call(t, 'PUT', '/api/user/update', {
          token: other,
          payload: { username: user.username, email, currentPassword },
        });
        expect(missing.statusCode, missing.body).toBe(422);
        expect(errorOf(missing)).toMatchObject({
          code: errorCodes.validationFailed,
          details: [
            {
              path: '/currentPassword',
              code: 'required',
              message: validationMessages.currentPasswordRequired,
            },
          ],
        });
      }
      const wrong = await call(t, 'PUT', '/api/user/update', {
        token: other,
        payload: { username: user.username, email, currentPassword: 'not-the-password' },
      });
      expect(wrong.statusCode, wrong.body).toBe(403);
      expect(errorOf(wrong)).toMatchObject({
        code: errorCodes.invalidCredentials,
        message: validationMessages.currentPasswordWrong,
        details: [
          { path: '/currentPassword', code: 'wrong', message: validationMessages.currentPasswordWrong },
        ],
      });
      // Nothing changed: the email still logs in, both sessions go on.
      expect((await login(t, user.email, user.password)).statusCode).toBe(200);
      expect((await login(t, email, user.password)).statusCode).toBe(401);
      expect((await call(t, 'GET', '/api/user/me', { token: user.token })).json<User>().email).toBe(
        user.email,
      );
      expect((await call(t, 'GET', '/api/user/me', { token: other })).statusCode).toBe(200);
    });

    it('a new email with the right password is stored, ends every other session, and the answered token goes on', async () => {
      const user = await createUser(t);
      const other = await secondSession(user);
      const email = `moved-${user.id}@example.com`;
      const updated = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username: user.username, email, currentPassword: user.password },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
      expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
      const me = await call(t, 'GET', '/api/user/me', { token: updated.json<{ token: string }>().token });
      expect(me.statusCode).toBe(200);
      expect(me.json<User>().email).toBe(email);
      expect((await login(t, email, user.password)).statusCode).toBe(200);
      expect((await login(t, user.email, user.password)).statusCode).toBe(401);
    });
  },
);
