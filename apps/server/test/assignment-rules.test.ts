import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  gameReadinessMessages,
  indexRuleMessage,
  messages,
  type Game,
  type GameFile,
  type UserGame,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import * as oneAssignmentPerJob from '../src/db/migrations/0010-one-assignment-per-job';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { solidPng } from './support/image-samples';

/**
 * One assignment per user, game and job type, refused with 409 even when identical
 * requests race; only an HTML page can be marked as a game's index; a game that is not Ready is "being prepared"
 * for artists, never "generate its files first".
 */
describe(`[API-2][API-3] assignment and index rules on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let files: GameFile[];

  const assign = (body: { userId: number; gameId: number; userGameTypeId?: number }) =>
    call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userGameTypeId: 1, jobPrice: 10, ...body },
    });
  const fileOf = (path: string) => files.find((file) => file.path === path)!;

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = await createGame(t, admin.token, { name: 'Rules', description: 'd', width: 640, height: 480 });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([
        { path: 'index.html', content: '<canvas></canvas>' },
        { path: 'start.htm', content: '<p>other start</p>' },
        { path: 'main.js', content: 'start()' },
        { path: 'img/hero.png', content: await solidPng(8, 8, 'red') },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<GameFile[]>();
  });
  afterAll(async () => t.close());

  it('a second assignment of the same user, game and job type is refused with 409 ASSIGNMENT_EXISTS; another job type is not', async () => {
    const user = await createUser(t);
    const first = await assign({ userId: user.id, gameId: game.id });
    expect(first.statusCode, first.body).toBe(201);

    const twin = await assign({ userId: user.id, gameId: game.id });
    expect(twin.statusCode).toBe(409);
    expect(errorOf(twin)).toMatchObject({
      name: 'ConflictError',
      code: 'ASSIGNMENT_EXISTS',
      message: messages.assignmentExists,
    });
    expect(errorOf(twin).details).toEqual([
      { path: '/gameId', code: 'assignment_exists', message: messages.assignmentExists },
    ]);

    // With its access removed, the answer says to give access again instead.
    const id = first.json<UserGame>().id;
    expect(
      (await call(t, 'DELETE', `/api/user-games/${id}/changeActivity`, { token: admin.token })).statusCode,
    ).toBe(200);
    const whileRemoved = await assign({ userId: user.id, gameId: game.id });
    expect(whileRemoved.statusCode).toBe(409);
    expect(errorOf(whileRemoved).message).toBe(messages.assignmentExistsInactive);

    // Sound Replace is another job: allowed once.
    const sound = await assign({ userId: user.id, gameId: game.id, userGameTypeId: 2 });
    expect(sound.statusCode, sound.body).toBe(201);
    // Editing it back to ReSkin would make a twin: 409 too; the same type with a new budget is fine.
    const soundId = sound.json<UserGame>().id;
    const retype = await call(t, 'PUT', `/api/user-games/${soundId}`, {
      token: admin.token,
      payload: { userGameTypeId: 1, jobPrice: 5 },
    });
    expect(retype.statusCode).toBe(409);
    expect(errorOf(retype).code).toBe('ASSIGNMENT_EXISTS');
    const rebudget = await call(t, 'PUT', `/api/user-games/${soundId}`, {
      token: admin.token,
      payload: { userGameTypeId: 2, jobPrice: 5 },
    });
    expect(rebudget.statusCode, rebudget.body).toBe(200);

    const listed = await call(t, 'POST', '/api/user-games/filter', {
      token: admin.token,
      payload: { where: { userId: user.id } },
    });
    expect(
      listed
        .json<UserGame[]>()
        .map((ug) => ug.userGameTypeId)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('10 concurrent identical assignments: exactly one 201 and nine 409, one row stored', async () => {
    const user = await createUser(t);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => assign({ userId: user.id, gameId: game.id })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const refused of responses.filter((r) => r.statusCode === 409))
      expect(errorOf(refused).code).toBe('ASSIGNMENT_EXISTS');
    const stored = await t.database.db
      .selectFrom('userGames')
      .select('id')
      .where('userId', '=', user.id)
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('migration 0010 keeps the twins an old database holds, and still refuses new ones', async () => {
    const { db } = t.database;
    const user = await createUser(t);
    await db.schema.dropIndex('userGames_assignment_unique').execute();
    const now = nowIso();
    const row = {
      userId: user.id,
      gameId: game.id,
      userGameTypeId: 1,
      jobPrice: 1,
      isActive: 1 as const,
      createdAt: now,
      updatedAt: now,
    };
    await db.insertInto('userGames').values([row, row]).execute();

    await oneAssignmentPerJob.up(db as Kysely<unknown>);
    expect(
      await db.selectFrom('userGames').select('id').where('userId', '=', user.id).execute(),
    ).toHaveLength(2);
    // A third through the API: the service finds the old ones.
    expect((await assign({ userId: user.id, gameId: game.id })).statusCode).toBe(409);
    // Two new twins of each other: the (partial) index refuses the second on the database itself.
    const other = await createUser(t);
    const fresh = { ...row, userId: other.id };
    await db.insertInto('userGames').values(fresh).execute();
    await expect(db.insertInto('userGames').values(fresh).execute()).rejects.toMatchObject({
      code: testDb === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE',
    });

    // Put the full index back for the other tests (the twins go first).
    await db.deleteFrom('userGames').where('userId', 'in', [user.id, other.id]).execute();
    await db.schema.dropIndex('userGames_assignment_unique').execute();
    await oneAssignmentPerJob.up(db as Kysely<unknown>);
    const predicate =
      testDb === 'postgres'
        ? await sql<{
            def: string;
          }>`select indexdef as def from pg_indexes where indexname = 'userGames_assignment_unique'`.execute(
            db,
          )
        : await sql<{
            def: string;
          }>`select sql as def from sqlite_master where name = 'userGames_assignment_unique'`.execute(db);
    expect(predicate.rows[0]?.def).not.toMatch(/where/i);
  });

  it('[GF-2] only an .html or .htm file can be marked as the index: others are refused with 422', async () => {
    for (const path of ['img/hero.png', 'main.js']) {
      const refused = await call(t, 'PATCH', `/api/games/${game.id}/files/${fileOf(path).fileId}/index`, {
        token: admin.token,
      });
      expect(refused.statusCode, path).toBe(422);
      expect(errorOf(refused).message).toBe(indexRuleMessage);
      expect(errorOf(refused).details).toEqual([
        { path: '/fileId', code: 'not_html', message: `${path}: ${indexRuleMessage}` },
      ]);
    }
    const current = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    expect(current.filter((file) => file.isStartFile).map((file) => file.path)).toEqual(['index.html']);
    const htm = await call(t, 'PATCH', `/api/games/${game.id}/files/${fileOf('start.htm').fileId}/index`, {
      token: admin.token,
    });
    expect(htm.statusCode, htm.body).toBe(200);
    expect(htm.json<GameFile>()).toMatchObject({ path: 'start.htm', isStartFile: true });
    expect(
      (
        await call(t, 'PATCH', `/api/games/${game.id}/files/${fileOf('index.html').fileId}/index`, {
          token: admin.token,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('a game that is not Ready: the artist reads that it is being prepared, the admin that it needs generating', async () => {
    const assigned = await assign({ userId: artist.id, gameId: game.id });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const asArtist = await call(t, 'GET', `/api/games/${game.id}/path/`, { token: artist.token });
    expect(asArtist.statusCode).toBe(409);
    expect(errorOf(asArtist)).toMatchObject({
      code: 'GAME_NOT_READY',
      message: gameReadinessMessages.preparingDetail,
    });
    expect(asArtist.body).not.toMatch(/generat/i);
    const version = await call(t, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: {
        name: 'Early',
        description: 'Before ready',
        gameId: game.id,
        userGamesId: assigned.json<UserGame>().id,
      },
    });
    expect(version.statusCode, version.body).toBe(201);
    const versionPaths = await call(
      t,
      'GET',
      `/api/game-versions/path/${version.json<{ id: number }>().id}/${game.id}`,
      { token: artist.token },
    );
    expect(versionPaths.statusCode).toBe(409);
    expect(errorOf(versionPaths).message).toBe(gameReadinessMessages.preparingDetail);

    const asAdmin = await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token });
    expect(asAdmin.statusCode).toBe(409);
    expect(errorOf(asAdmin)).toMatchObject({
      code: 'GAME_NOT_READY',
      message: gameReadinessMessages.notReadyAdmin,
    });
  });
});
