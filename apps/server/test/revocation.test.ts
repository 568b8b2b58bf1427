import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GameStatus, RoleType, errorCodes, type Game, type GameFile, type GamePath, type User } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, errorOf, login, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';

/**
 * Revocation (issue 13, decision 0013): play links stop working once their user may no longer see the game, and
 * a password change, an admin's reset, a role change and a suspension end every session of the user.
 */

async function readyGame(t: TestApp, admin: TestUser, name: string): Promise<Game> {
  const created = (await call(t, 'POST', '/api/games', { token: admin.token, payload: { name, description: 'x', width: 480, height: 640 } })).json<Game>();
  const body = new FormData();
  for (const [path, content] of [['index.html', '<!doctype html><p>hi'], ['hero.png', await solidPng(16, 16, 'orange')]] as const) {
    body.append('fullPath', path);
    body.append('file', new Blob([content]), path);
  }
  const uploaded = await t.app.inject({ method: 'POST', url: `/api/game/upload/${created.id}`, headers: { authorization: `Bearer ${admin.token}` }, payload: body });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const files = (await call(t, 'GET', `/api/games/${created.id}/files`, { token: admin.token })).json<GameFile[]>();
  await call(t, 'PATCH', `/api/games/${created.id}/files/${files.find((f) => f.path === 'index.html')!.fileId}/index`, { token: admin.token });
  await call(t, 'GET', `/api/games/${created.id}/generate`, { token: admin.token });
  await t.generation.idle();
  const game = (await call(t, 'GET', `/api/games/${created.id}`, { token: admin.token })).json<Game>();
  expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
  return game;
}

async function assign(t: TestApp, userId: number, gameId: number): Promise<void> {
  const now = nowIso();
  await t.database.db
    .insertInto('userGames')
    .values({ userId, gameId, userGameTypeId: 1, jobPrice: 10, isActive: 1, createdAt: now, updatedAt: now })
    .execute();
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

    await t.database.db.updateTable('userGames').set({ isActive: 0 }).where('userId', '=', inactive.id).execute();
    await t.database.db.deleteFrom('userGames').where('userId', '=', deleted.id).execute();
    expectPlayForbidden(await play(t, inactiveUrl));
    expectPlayForbidden(await play(t, deletedUrl));
  });

  it("a demoted admin's links (the unwatermarked original, the files root) answer 403", async () => {
    const other = await createUser(t, RoleType.Admin);
    const url = await playUrl(t, other.token, game.id);
    const root = (await call(t, 'GET', `/api/games/${game.id}/files-root`, { token: other.token })).json<{ rootPath: string }>().rootPath;
    const rootUrl = `${new URL(root).pathname}hero.png`;
    expect((await play(t, url)).statusCode).toBe(200);
    expect((await play(t, rootUrl)).statusCode).toBe(200);
    expect((await call(t, 'PUT', `/api/user/role/${other.id}/${RoleType.User}`, { token: admin.token })).statusCode).toBe(204);
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
    await t.database.db.updateTable('users').set({ roleTypeId: RoleType.User }).where('id', '=', other.id).execute();
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
    await t.database.db.updateTable('userGames').set({ isActive: 0 }).where('userId', '=', artist.id).execute();
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

// With and without the user cache (issue 15): a change made through this server ends the sessions at once either way.
describe.each([0, 60_000])(`[API-1] sessions end with a password change, a reset, a role change and a suspension on ${testDb} (users kept %i ms)`, (cacheMs) => {
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
    const reset = await call(t, 'PUT', '/api/user/update/password', { token: admin.token, payload: { userId: user.id } });
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
    expect((await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.Demo}`, { token: admin.token })).statusCode).toBe(204);
    expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
    const fresh = (await login(t, user.email, user.password)).json<{ token: string }>().token;
    expect((await call(t, 'GET', '/api/user/me', { token: fresh })).json<User>().roleTypeId).toBe(RoleType.Demo);
  });

  it('after a suspension the old tokens stay 401, even once the admin re-activates the account', async () => {
    const user = await createUser(t);
    const other = await secondSession(user);
    expect((await call(t, 'DELETE', '/api/user/disable', { token: user.token })).statusCode).toBe(204);
    expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
    expect((await call(t, 'PUT', `/api/user/activate/${user.id}`, { token: admin.token })).statusCode).toBe(204);
    expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: user.token }));
    expectUnauthorized(await call(t, 'GET', '/api/user/me', { token: other }));
    const fresh = (await login(t, user.email, user.password)).json<{ token: string }>().token;
    expect((await call(t, 'GET', '/api/user/me', { token: fresh })).statusCode).toBe(200);
  });

  it('a change of username and email keeps the session (the answered token carries the same version)', async () => {
    const user = await createUser(t);
    const updated = await call(t, 'PUT', '/api/user/update', {
      token: user.token,
      payload: { username: `${user.username}x`, email: `x${user.email}` },
    });
    expect(updated.statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token: updated.json<{ token: string }>().token })).statusCode).toBe(200);
  });
});
