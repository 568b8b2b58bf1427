import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameVersionStatus,
  RoleType,
  UserGameType,
  containsPattern,
  errorCodes,
  limits,
  totalCountHeader,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, errorOf, testDb, type TestApp, type TestUser } from './helpers';

/**
 * Paging, sorting and search of the admin lists: X-Total-Count, every row exactly once across pages,
 * id as the last sort key, and the computed user-game columns. Rows are inserted straight into the database
 * (signing 153 users up would hash 153 passwords); every read goes through the API.
 */

const userCount = 153;
const gameCount = 121;
const fileCount = 137;
/** Non-unique values, so that sorting by them has ties that only the id can order. */
const firstNames = ['Ann', 'Bob', 'Cid'];
const widths = [640, 800, 1024];
const pad = (n: number) => String(n).padStart(3, '0');

interface Row {
  id: number;
}

describe(`[API-6] paging, sorting and search of the admin lists on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let regular: TestUser;
  /** The seeded rows' ids, in insertion order. */
  let userIds: number[];
  let gameIds: number[];
  let filesGameId: number;
  let fileIds: number[];
  /** The assignments of the review loop, and every user-game id. */
  let reviewed: { finished: number; inProgress: number; empty: number };
  let userGameIds: number[];
  const finishTimes = ['2026-03-01T10:00:00.000Z', '2026-03-05T12:30:00.000Z'];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    regular = await createUser(t, RoleType.User);
    const db = t.database.db;
    const now = nowIso();

    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: userCount }, (_, i) => ({
          username: `pager_${pad(i + 1)}`,
          email: `pager_${pad(i + 1)}@example.com`,
          passwordHash: 'not-a-hash',
          firstName: firstNames[i % firstNames.length]!,
          lastName: 'Paged',
          phone: '5551234567',
          roleTypeId: RoleType.User,
          activated: 1,
          emailVerified: 0,
          dataProtectionRegulationVersion: 1,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning('id')
      .execute();
    userIds = users.map((row) => row.id);

    const games = await db
      .insertInto('games')
      .values(
        Array.from({ length: gameCount }, (_, i) => ({
          name: `Paged game ${pad(i + 1)}`,
          description: 'd',
          width: widths[i % widths.length]!,
          height: 480,
          gameStatusTypeId: 1,
          isActive: 1,
          imagePath: '',
          rootPath: '',
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning('id')
      .execute();
    gameIds = games.map((row) => row.id);

    filesGameId = gameIds[0]!;
    const files = await db
      .insertInto('gameFiles')
      .values(
        Array.from({ length: fileCount }, (_, i) => {
          const image = i % 2 === 0;
          return {
            gameId: filesGameId,
            fileId: i + 1,
            path: image ? `assets/images/picture_${pad(i)}.png` : `assets/sounds/sound_${pad(i)}.ogg`,
            isStartFile: 0,
            isSplash: 0,
            width: image ? 32 : null,
            height: image ? 32 : null,
            size: 100 + (i % 5),
            contentType: image ? 'image/png' : 'audio/ogg',
            storageKey: `paging/${i}`,
            createdAt: now,
            updatedAt: now,
          };
        }),
      )
      .returning('id')
      .execute();
    fileIds = files.map((row) => row.id);

    // 130 assignments (more than one page of 100): user i gets game i.
    const userGames = await db
      .insertInto('userGames')
      .values(
        Array.from({ length: 130 }, (_, i) => ({
          userId: userIds[i]!,
          gameId: gameIds[i % gameCount]!,
          userGameTypeId: UserGameType.ReSkin,
          jobPrice: i % 4,
          isActive: 1,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning('id')
      .execute();
    userGameIds = userGames.map((row) => row.id);
    reviewed = { finished: userGameIds[7]!, inProgress: userGameIds[8]!, empty: userGameIds[9]! };

    const version = (userGamesId: number, name: string, finishedAt: string | null) => ({
      name,
      description: 'd',
      gameId: gameIds[userGameIds.indexOf(userGamesId) % gameCount]!,
      userGamesId,
      userId: userIds[userGameIds.indexOf(userGamesId)]!,
      isLocked: 0 as const,
      isActive: 1 as const,
      gameVersionStatusId: finishedAt ? GameVersionStatus.Finished : GameVersionStatus.InProgress,
      finishedAt,
      rootPath: '',
      createdAt: now,
      updatedAt: now,
    });
    await db
      .insertInto('gameVersions')
      .values([
        version(reviewed.finished, 'first', finishTimes[0]!),
        version(reviewed.finished, 'second', null),
        version(reviewed.finished, 'third', finishTimes[1]!),
        version(reviewed.inProgress, 'only', null),
      ])
      .execute();
  });
  afterAll(async () => t.close());

  async function list<T>(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
  ): Promise<{ rows: T[]; total: number; response: LightMyRequestResponse }> {
    const response = await call(t, method, url, {
      token: admin.token,
      ...(payload !== undefined ? { payload } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    const header = response.headers[totalCountHeader.toLowerCase()];
    expect(header, `${url} answers ${totalCountHeader}`).toMatch(/^\d+$/);
    return { rows: response.json<T[]>(), total: Number(header), response };
  }

  /** Every page of a list, `size` rows at a time, until the total is reached; the ids in page order. */
  async function allPages(
    url: string,
    filter: Record<string, unknown>,
    size: number,
  ): Promise<{ ids: number[]; total: number }> {
    const ids: number[] = [];
    let total = -1;
    for (let skip = 0; total < 0 || skip < total; skip += size) {
      const page = await list<Row>('POST', url, { ...filter, limit: size, skip });
      expect(page.rows.length, `page at ${skip}`).toBe(Math.min(size, page.total - skip));
      total = page.total;
      ids.push(...page.rows.map((row) => row.id));
    }
    return { ids, total };
  }

  function expectEachOnce(ids: number[], expected: number[]) {
    expect(new Set(ids).size, 'no row on two pages').toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
  }

  function expectInvalidFilter(response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response).code).toBe(errorCodes.invalidFilter);
  }

  describe('X-Total-Count', () => {
    it('[API-6] POST /user/list counts every matching user, whatever limit and skip', async () => {
      const all = await list<Row>('POST', '/api/user/list', { limit: 5 });
      expect(all.total).toBe(userCount + 2);
      expect(all.rows).toHaveLength(5);
      expect(all.response.headers['access-control-expose-headers']).toContain(totalCountHeader);

      // pager_100 .. pager_153
      const hundreds = await list<Row>('POST', '/api/user/list', {
        where: { username: { like: 'pager_1%' } },
        limit: 10,
        skip: 50,
      });
      expect(hundreds.total).toBe(userCount - 99);
      expect(hundreds.rows).toHaveLength(4);
      const none = await list<Row>('POST', '/api/user/list', { where: { username: 'nobody' } });
      expect(none).toMatchObject({ total: 0, rows: [] });
    });

    it('[API-3] POST /games/filter counts the matching games', async () => {
      expect((await list<Row>('POST', '/api/games/filter', {})).total).toBe(gameCount);
      const wide = await list<Row>('POST', '/api/games/filter', { where: { width: widths[0] }, limit: 3 });
      expect(wide.total).toBe(Math.ceil(gameCount / widths.length));
      expect(wide.rows).toHaveLength(3);
    });

    it('[API-2] GET /user-games and POST /user-games/filter count the matching user-games', async () => {
      const newest = await list<UserGame>('GET', '/api/user-games');
      expect(newest.total).toBe(userGameIds.length);
      expect(newest.rows).toHaveLength(limits.filterLimitDefault);
      expect(newest.rows[0]).toMatchObject({
        id: userGameIds.at(-1),
        user: { id: expect.any(Number) },
        game: { id: expect.any(Number) },
      });
      const cheap = await list<Row>('POST', '/api/user-games/filter', { where: { jobPrice: 0 }, limit: 1 });
      expect(cheap.total).toBe(Math.ceil(userGameIds.length / 4));
    });

    it('[API-4] POST /game-versions/filter keeps its keys and adds where, order, limit and skip', async () => {
      const byUserGame = await list<GameVersion>('POST', '/api/game-versions/filter', {
        userGamesId: reviewed.finished,
      });
      expect(byUserGame.total).toBe(3);
      expect(byUserGame.rows.map((v) => v.name)).toEqual(['first', 'second', 'third']);

      const finished = await list<GameVersion>('POST', '/api/game-versions/filter', {
        userGamesId: reviewed.finished,
        where: { gameVersionStatusId: GameVersionStatus.Finished },
        order: 'finishedAt DESC',
        limit: 1,
      });
      expect(finished.total).toBe(2);
      expect(finished.rows.map((v) => v.finishedAt)).toEqual([finishTimes[1]]);
      const second = await list<GameVersion>('POST', '/api/game-versions/filter', {
        userGamesId: reviewed.finished,
        order: 'name DESC',
        limit: 1,
        skip: 1,
      });
      expect(second.rows.map((v) => v.name)).toEqual(['second']);
      expect(second.total).toBe(3);

      expect((await list<GameVersion>('POST', '/api/game-versions/filter', {})).total).toBe(4);
      expect(
        (await list<GameVersion>('POST', '/api/game-versions/filter', { userId: userIds[8] })).total,
      ).toBe(1);
      expectInvalidFilter(
        await call(t, 'POST', '/api/game-versions/filter', {
          token: admin.token,
          payload: { where: { rootPath: '' } },
        }),
      );
      const unknownKey = await call(t, 'POST', '/api/game-versions/filter', {
        token: admin.token,
        payload: { fields: ['id'] },
      });
      expect(unknownKey.statusCode).toBe(422);
    });

    it('[API-3] POST /games/{id}/files/filter counts the files of that game; an unknown game is 404', async () => {
      const all = await list<GameFile>('POST', `/api/games/${filesGameId}/files/filter`, { limit: 10 });
      expect(all.total).toBe(fileCount);
      expect(all.rows).toHaveLength(10);
      expect(all.rows[0]).not.toHaveProperty('storageKey');
      const sounds = await list<GameFile>('POST', `/api/games/${filesGameId}/files/filter`, {
        where: { path: { like: containsPattern('/SOUNDS/') } },
        order: 'path DESC',
        limit: 2,
      });
      expect(sounds.total).toBe(Math.floor(fileCount / 2));
      expect(sounds.rows.map((f) => f.path)).toEqual([
        `assets/sounds/sound_${pad(fileCount - 2)}.ogg`,
        `assets/sounds/sound_${pad(fileCount - 4)}.ogg`,
      ]);
      const images = await list<GameFile>('POST', `/api/games/${filesGameId}/files/filter`, {
        where: { width: { neq: null }, contentType: 'image/png' },
        fields: ['id', 'path'],
      });
      expect(images.total).toBe(Math.ceil(fileCount / 2));
      expect(Object.keys(images.rows[0]!).sort()).toEqual(['id', 'path']);
      expect((await list<GameFile>('POST', `/api/games/${gameIds[1]}/files/filter`, {})).total).toBe(0);

      const unknown = await call(t, 'POST', '/api/games/987654/files/filter', {
        token: admin.token,
        payload: {},
      });
      expect(unknown.statusCode).toBe(404);
      expectInvalidFilter(
        await call(t, 'POST', `/api/games/${filesGameId}/files/filter`, {
          token: admin.token,
          payload: { where: { storageKey: 'x' } },
        }),
      );
      // The workbench's list stays whole and unpaged.
      const whole = await call(t, 'GET', `/api/games/${filesGameId}/files`, { token: admin.token });
      expect(whole.json<GameFile[]>()).toHaveLength(fileCount);
      expect(whole.headers[totalCountHeader.toLowerCase()]).toBeUndefined();
    });

    it('[API-7] the files filter is for admins only: 403 for a user, 401 without a token', async () => {
      const forbidden = await call(t, 'POST', `/api/games/${filesGameId}/files/filter`, {
        token: regular.token,
        payload: {},
      });
      expect(forbidden.statusCode).toBe(403);
      expect(errorOf(forbidden).code).toBe(errorCodes.forbidden);
      expect(
        (await call(t, 'POST', `/api/games/${filesGameId}/files/filter`, { payload: {} })).statusCode,
      ).toBe(401);
    });
  });

  describe('every row exactly once across pages', () => {
    const cases: [string, () => { url: string; expected: number[] }, Record<string, unknown>][] = [
      [
        'users by firstName (ties)',
        () => ({ url: '/api/user/list', expected: [admin.id, regular.id, ...userIds] }),
        { order: 'firstName ASC' },
      ],
      [
        'users by username DESC',
        () => ({ url: '/api/user/list', expected: [admin.id, regular.id, ...userIds] }),
        { order: 'username DESC' },
      ],
      [
        'users without an order',
        () => ({ url: '/api/user/list', expected: [admin.id, regular.id, ...userIds] }),
        {},
      ],
      [
        'games by width (ties)',
        () => ({ url: '/api/games/filter', expected: gameIds }),
        { order: ['width DESC', 'height ASC'] },
      ],
      [
        'game files by size (ties)',
        () => ({ url: `/api/games/${filesGameId}/files/filter`, expected: fileIds }),
        { order: 'size ASC' },
      ],
      [
        'game files by width (NULLs and ties)',
        () => ({ url: `/api/games/${filesGameId}/files/filter`, expected: fileIds }),
        { order: 'width DESC' },
      ],
      [
        'user-games by finishedCount (ties)',
        () => ({ url: '/api/user-games/filter', expected: userGameIds }),
        { order: 'finishedCount DESC' },
      ],
      [
        'user-games by jobPrice (ties)',
        () => ({ url: '/api/user-games/filter', expected: userGameIds }),
        { order: 'jobPrice ASC' },
      ],
    ];
    for (const size of [25, 50]) {
      for (const [label, target, filter] of cases) {
        it(`[API-6] ${label}, ${size} a page`, async () => {
          const { url, expected } = target();
          const { ids, total } = await allPages(url, filter, size);
          expect(total).toBe(expected.length);
          expectEachOnce(ids, expected);
        });
      }
    }

    it('[API-6] users matching a search, 25 a page: the true total and each match once', async () => {
      const { ids, total } = await allPages(
        '/api/user/list',
        { where: { firstName: 'Bob' }, order: 'username ASC' },
        25,
      );
      const bobs = userIds.filter((_, i) => firstNames[i % firstNames.length] === 'Bob');
      expect(total).toBe(bobs.length);
      expectEachOnce(ids, bobs);
    });
  });

  describe('stable sort orders', () => {
    it('[API-6] rows that tie on the sort column come in id order, on every page', async () => {
      const { ids } = await allPages(
        '/api/user/list',
        { where: { username: { like: 'pager%' } }, order: 'firstName DESC', fields: ['id', 'firstName'] },
        25,
      );
      const expected = firstNames
        .toReversed()
        .flatMap((name) => userIds.filter((_, i) => firstNames[i % firstNames.length] === name));
      expect(ids).toEqual(expected);
    });

    it('[API-6] the same query answers the same order every time', async () => {
      const filter = { order: 'width ASC', limit: 50, skip: 25 };
      const first = await list<Row>('POST', '/api/games/filter', filter);
      const again = await list<Row>('POST', '/api/games/filter', filter);
      expect(again.rows.map((g) => g.id)).toEqual(first.rows.map((g) => g.id));
    });

    it('[API-6] NULLs come first ascending and last descending on both databases', async () => {
      const url = `/api/games/${filesGameId}/files/filter`;
      const ascending = await list<GameFile>('POST', url, { order: 'width ASC', limit: 100 });
      expect(ascending.rows.slice(0, Math.floor(fileCount / 2)).every((f) => f.width === null)).toBe(true);
      const descending = await list<GameFile>('POST', url, { order: 'width DESC', limit: 100 });
      expect(descending.rows.slice(0, Math.ceil(fileCount / 2)).every((f) => f.width === 32)).toBe(true);
    });
  });

  describe('unknown sort columns', () => {
    const urls = () => [
      '/api/user/list',
      '/api/games/filter',
      '/api/user-games/filter',
      '/api/game-versions/filter',
      `/api/games/${filesGameId}/files/filter`,
    ];
    it('[API-6] answer 400 INVALID_FILTER on every list', async () => {
      for (const url of urls()) {
        for (const order of ['passwordHash ASC', 'nope DESC', 'storageKey', 'constructor']) {
          expectInvalidFilter(await call(t, 'POST', url, { token: admin.token, payload: { order } }));
        }
      }
    });

    it(`[API-6] a limit over ${limits.filterLimitMax} is refused on every list`, async () => {
      for (const url of urls()) {
        const response = await call(t, 'POST', url, {
          token: admin.token,
          payload: { limit: limits.filterLimitMax + 1 },
        });
        expect(response.statusCode, url).toBe(422);
      }
    });
  });

  describe('the user-games review loop', () => {
    it('[API-2] each user-game carries versionCount, finishedCount and lastFinishedAt', async () => {
      const { rows } = await list<UserGame>('POST', '/api/user-games/filter', {
        where: { id: { inq: [reviewed.finished, reviewed.inProgress, reviewed.empty] } },
        order: 'id ASC',
      });
      expect(rows.map((ug) => [ug.versionCount, ug.finishedCount, ug.lastFinishedAt])).toEqual([
        [3, 2, finishTimes[1]],
        [1, 0, null],
        [0, 0, null],
      ]);
      expect(rows[0]).toMatchObject({ username: `pager_${pad(8)}`, gameName: `Paged game ${pad(8)}` });
      expect(typeof rows[0]!.versionCount).toBe('number');
    });

    it('[API-2] where finishedCount gt 0 finds the user-games with Finished versions', async () => {
      const found = await list<UserGame>('POST', '/api/user-games/filter', {
        where: { finishedCount: { gt: 0 } },
      });
      expect(found.total).toBe(1);
      expect(found.rows.map((ug) => ug.id)).toEqual([reviewed.finished]);
      const started = await list<UserGame>('POST', '/api/user-games/filter', {
        where: { versionCount: { gte: 1 } },
        order: 'versionCount DESC',
      });
      expect(started.rows.map((ug) => ug.id)).toEqual([reviewed.finished, reviewed.inProgress]);
      const recent = await list<UserGame>('POST', '/api/user-games/filter', {
        where: { lastFinishedAt: { gt: '2026-03-02T00:00:00Z' } },
      });
      expect(recent.rows.map((ug) => ug.id)).toEqual([reviewed.finished]);
      const never = await list<UserGame>('POST', '/api/user-games/filter', {
        where: { lastFinishedAt: null },
        limit: 1,
      });
      expect(never.total).toBe(userGameIds.length - 1);
    });

    it('[API-2] sorting by finishedCount and lastFinishedAt puts finished work first', async () => {
      const byCount = await list<UserGame>('POST', '/api/user-games/filter', {
        order: 'finishedCount DESC',
        limit: 3,
      });
      expect(byCount.rows.map((ug) => ug.id)).toEqual([reviewed.finished, userGameIds[0], userGameIds[1]]);
      const byTime = await list<UserGame>('POST', '/api/user-games/filter', {
        order: ['lastFinishedAt DESC', 'id DESC'],
        limit: 2,
      });
      expect(byTime.rows.map((ug) => ug.id)).toEqual([reviewed.finished, userGameIds.at(-1)]);
    });

    it('[API-2] search by username or game name, in any case, and sort by them', async () => {
      const text = (value: string) => ({
        or: [{ username: { like: containsPattern(value) } }, { gameName: { like: containsPattern(value) } }],
      });
      const byUser = await list<UserGame>('POST', '/api/user-games/filter', { where: text('PAGER_012') });
      expect(byUser.rows.map((ug) => ug.id)).toEqual([userGameIds[11]]);
      // Games 001 to 009 each have two user-games (user-games 122 to 130 start again at game 001).
      const byGame = await list<UserGame>('POST', '/api/user-games/filter', {
        where: text('GAME 00'),
        order: 'gameName DESC',
        limit: 3,
      });
      expect(byGame.total).toBe(18);
      expect(byGame.rows.map((ug) => [ug.gameName, ug.id])).toEqual([
        ['Paged game 009', userGameIds[8]],
        ['Paged game 009', userGameIds[129]],
        ['Paged game 008', userGameIds[7]],
      ]);
      const byUsername = await list<UserGame>('POST', '/api/user-games/filter', {
        order: 'username DESC',
        limit: 1,
        fields: ['id', 'username'],
      });
      expect(byUsername.rows).toEqual([
        { id: userGameIds.at(-1), username: `pager_${pad(userGameIds.length)}` },
      ]);
    });

    it('[API-2] the computed columns are refused where they make no sense', async () => {
      expectInvalidFilter(
        await call(t, 'POST', '/api/user-games/filter', {
          token: admin.token,
          payload: { where: { finishedCount: { like: '%1%' } } },
        }),
      );
      expectInvalidFilter(
        await call(t, 'POST', '/api/user-games/filter', {
          token: admin.token,
          payload: { where: { lastFinishedAt: { gt: 'yesterday' } } },
        }),
      );
    });
  });

  describe('search by text', () => {
    it('[API-6] users by username or email, ignoring ASCII case on both databases', async () => {
      const where = (value: string) => ({
        or: [{ username: { like: containsPattern(value) } }, { email: { like: containsPattern(value) } }],
      });
      const byName = await list<{ id: number; username: string }>('POST', '/api/user/list', {
        where: where('PAGER_15'),
        order: 'username ASC',
      });
      expect(byName.rows.map((u) => u.username)).toEqual([
        'pager_150',
        'pager_151',
        'pager_152',
        'pager_153',
      ]);
      const byEmail = await list<Row>('POST', '/api/user/list', { where: where('R_007@EXAMPLE') });
      expect(byEmail.rows.map((u) => u.id)).toEqual([userIds[6]]);
    });

    it('[API-6] games by name and files by path', async () => {
      const games = await list<{ name: string }>('POST', '/api/games/filter', {
        where: { name: { like: containsPattern('game 11') } },
        order: 'name ASC',
      });
      expect(games.total).toBe(10);
      expect(games.rows[0]!.name).toBe('Paged game 110');
      const files = await list<GameFile>('POST', `/api/games/${filesGameId}/files/filter`, {
        where: { path: { like: containsPattern('PICTURE_00') } },
      });
      expect(files.rows.map((f) => f.path)).toEqual([
        'assets/images/picture_000.png',
        'assets/images/picture_002.png',
        'assets/images/picture_004.png',
        'assets/images/picture_006.png',
        'assets/images/picture_008.png',
      ]);
    });

    it('[API-6] escaped % and _ match only themselves; a pattern ending in a lone backslash is a 400', async () => {
      const users = async (like: string) =>
        (await list<Row>('POST', '/api/user/list', { where: { username: { like } } })).total;
      const games = async (like: string) =>
        (await list<Row>('POST', '/api/games/filter', { where: { name: { like } } })).total;
      // Unescaped, _ is any one character and % any text: "game_01" matches "game 010" to "game 019".
      expect(await games('%game_01%')).toBe(10);
      expect(await games(containsPattern('game_01'))).toBe(0);
      expect(await users('%ager%')).toBe(userCount);
      expect(await users(containsPattern('ager%'))).toBe(0);
      expect(await users(containsPattern('r_00'))).toBe(9);
      expect(await users('%r\\_00%')).toBe(9);
      expect(await users(containsPattern('pager\\'))).toBe(0);
      expectInvalidFilter(
        await call(t, 'POST', '/api/user/list', {
          token: admin.token,
          payload: { where: { username: { like: 'pager\\' } } },
        }),
      );
    });
  });

  it('[API-6] the OpenAPI document names X-Total-Count on every paged list', async () => {
    const document = (await call(t, 'GET', '/api/docs/json')).json<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
      >;
    }>();
    const paged = [
      ['/api/user/list', 'post'],
      ['/api/games/filter', 'post'],
      ['/api/games/{id}/files/filter', 'post'],
      ['/api/user-games', 'get'],
      ['/api/user-games/filter', 'post'],
      ['/api/game-versions/filter', 'post'],
    ] as const;
    for (const [path, method] of paged) {
      expect(document.paths[path]?.[method]?.responses['200']?.headers, `${method} ${path}`).toHaveProperty([
        totalCountHeader,
      ]);
    }
    expect(document.paths['/api/games/{id}/files']?.get?.responses['200']?.headers).toBeUndefined();
  });
});
