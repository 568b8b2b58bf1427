import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  GameStatus,
  RoleType,
  type Game,
  type GameFile,
  type GameVersion,
  type RoleTypeId,
} from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, signupBody, testDb, type TestApp, type TestUser } from './helpers';
import { expectedStatuses, roles, type Role } from './authorization-matrix.data';
import { solidPng } from './support/image-samples';

/**
 * The authorization test: every /api route of the OpenAPI document (the app's route
 * table) × anonymous, demo, user A (assigned to the game, owner of the version), user B (a user with no
 * assignment) and an admin, each answer compared with the expected status kept as data in
 * authorization-matrix.data.ts. A route without a row there fails the test.
 *
 * Deterministic fixtures: each route gets a fresh Ready game (so an admin's delete or upload cannot disturb the
 * next route), each cell a fresh assignment of user A and a fresh version of A's, and a fresh target user where
 * the route names one. A caller whose call ended its own session (a password change, a suspension) is replaced.
 */

const roleOf: Record<Exclude<Role, 'anonymous'>, RoleTypeId> = {
  demo: RoleType.Demo,
  userA: RoleType.User,
  userB: RoleType.User,
  admin: RoleType.Admin,
};

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

interface Fixtures {
  game: Game;
  indexFileId: number;
  imageFileId: number;
  helperId: number;
}

interface CellFixtures {
  userGameId: number;
  versionId: number;
}

function multipart(files: { name: string; content: Buffer | string; path?: string }[]): FormData {
  const body = new FormData();
  for (const file of files) {
    if (file.path) body.append('fullPath', file.path);
    body.append('file', new Blob([file.content]), file.name);
  }
  return body;
}

describe(`authorization matrix on ${testDb}`, () => {
  let t: TestApp;
  let routes: { method: string; path: string; key: string }[];
  const users = {} as Record<Exclude<Role, 'anonymous'>, TestUser>;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    png = await solidPng(16, 16, 'orange');
    const response = await call(t, 'GET', '/api/docs/json');
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenApiDocument>();
    routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
      })),
    );
    for (const role of Object.keys(roleOf) as (keyof typeof roleOf)[])
      users[role] = await createUser(t, roleOf[role]);
    // A second active admin, so the admin's own suspension is allowed (the last active one's is 409 LAST_ADMIN).
    await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t?.close());

  /** A caller whose own session the last call ended (or whose role it changed) is replaced by a fresh one. */
  async function ensureUser(role: keyof typeof roleOf): Promise<void> {
    const me = await call(t, 'GET', '/api/user/me', { token: users[role].token });
    if (me.statusCode === 200 && me.json<{ roleTypeId: number }>().roleTypeId === roleOf[role]) return;
    users[role] = await createUser(t, roleOf[role]);
  }

  async function readyGame(): Promise<Fixtures> {
    const admin = users.admin.token;
    const created = await call(t, 'POST', '/api/games', {
      token: admin,
      payload: { name: `Matrix ${Math.random()}`, description: 'Matrix', width: 480, height: 640 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Game>().id;
    const body = multipart([
      { name: 'index.html', path: 'index.html', content: '<!doctype html><p>hi' },
      { name: 'hero.png', path: 'hero.png', content: png },
      // hero.png is a sprite sheet of one 16×16 frame "hero".
      {
        name: 'hero.json',
        path: 'hero.json',
        content: JSON.stringify({
          frames: { hero: { frame: { x: 0, y: 0, w: 16, h: 16 } } },
          meta: { image: 'hero.png' },
        }),
      },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${id}`,
      headers: { authorization: `Bearer ${admin}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = (await call(t, 'GET', `/api/games/${id}/files`, { token: admin })).json<GameFile[]>();
    const indexFileId = files.find((f) => f.path === 'index.html')!.fileId;
    const imageFileId = files.find((f) => f.path === 'hero.png')!.fileId;
    await call(t, 'PATCH', `/api/games/${id}/files/${indexFileId}/index`, { token: admin });
    await call(t, 'GET', `/api/games/${id}/generate`, { token: admin });
    await t.generation.idle();
    const game = (await call(t, 'GET', `/api/games/${id}`, { token: admin })).json<Game>();
    expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
    const helper = await t.app.inject({
      method: 'POST',
      url: `/api/games/${id}/psd-files/`,
      headers: { authorization: `Bearer ${admin}` },
      payload: multipart([{ name: 'hero.psd', path: 'hero.psd', content: 'psd' }]),
    });
    expect(helper.statusCode, helper.body).toBeLessThan(300);
    const helpers = (await call(t, 'GET', `/api/games/${id}/psd-files/`, { token: admin })).json<{
      files: { id: number }[];
    }>().files;
    return { game, indexFileId, imageFileId, helperId: helpers[0]!.id };
  }

  async function assign(userId: number, gameId: number): Promise<number> {
    // One assignment per user, game and job type: the previous cell's goes, with its versions.
    await t.database.db
      .deleteFrom('userGames')
      .where('userId', '=', userId)
      .where('gameId', '=', gameId)
      .execute();
    const now = nowIso();
    const row = await t.database.db
      .insertInto('userGames')
      .values({
        userId,
        gameId,
        userGameTypeId: 1,
        jobPrice: 10,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function cellFixtures(f: Fixtures): Promise<CellFixtures> {
    const userGameId = await assign(users.userA.id, f.game.id);
    await assign(users.demo.id, f.game.id);
    const version = await call(t, 'POST', '/api/game-versions', {
      token: users.userA.token,
      payload: { name: 'Matrix look', description: 'Matrix', gameId: f.game.id, userGamesId: userGameId },
    });
    expect(version.statusCode, version.body).toBe(201);
    return { userGameId, versionId: version.json<GameVersion>().id };
  }

  /** A fresh user for routes that act on another user (delete, role, activate). */
  async function targetUser(): Promise<number> {
    const signup = await call(t, 'POST', '/api/user/signup', { payload: signupBody() });
    expect(signup.statusCode, signup.body).toBe(201);
    return signup.json<{ id: number }>().id;
  }

  /** The URL (path params filled from the fixtures) and a valid-enough body of one route for one caller. */
  async function requestFor(
    route: { method: string; path: string; key: string },
    role: Role,
    f: Fixtures,
    c: CellFixtures,
  ): Promise<{ url: string; payload?: unknown }> {
    const caller = role === 'anonymous' ? undefined : users[role];
    const needsTarget = /^\/api\/user\/(delete|role|activate)\//.test(route.path);
    const target = needsTarget ? await targetUser() : users.userA.id;
    const versionRoute = route.path.startsWith('/api/game-version') || route.path.startsWith('/api/files/');
    const userGameRoute = route.path.startsWith('/api/user-games/');
    const params: Record<string, number | string> = {
      id: route.path.startsWith('/api/user/')
        ? target
        : versionRoute
          ? c.versionId
          : userGameRoute
            ? c.userGameId
            : f.game.id,
      gameId: f.game.id,
      userGameId: c.userGameId,
      versionId: c.versionId,
      fileId: f.imageFileId,
      helperId: f.helperId,
      roleId: RoleType.User,
      document: 'terms-of-use',
    };
    if (route.key === 'PATCH /api/games/{id}/files/{fileId}/index') params.fileId = f.indexFileId;
    if (route.key === 'PUT /api/game-versions/{versionId}/verdict') {
      // A verdict needs a Finished version: user A finishes it first.
      const done = await call(t, 'POST', '/api/game-versions/done', {
        token: users.userA.token,
        payload: { id: c.versionId },
      });
      expect(done.statusCode, done.body).toBe(200);
    }
    if (route.key === 'PATCH /api/notes/{noteId}') {
      // A note to resolve: the admin writes one on user A's version first.
      const note = await call(t, 'POST', `/api/game-versions/${c.versionId}/notes`, {
        token: users.admin.token,
        payload: { text: 'Brighter, please.' },
      });
      expect(note.statusCode, note.body).toBe(201);
      params.noteId = note.json<{ id: number }>().id;
    }
    params.frameName = 'hero';
    if (route.key === 'DELETE /api/game-versions/{versionId}/files/{fileId}/frames/{frameName}') {
      // Restoring a frame needs a replaced frame: user A replaces it first.
      const body = new FormData();
      body.append('frame', 'hero');
      body.append('file', new Blob([png]), 'hero.png');
      const replaced = await t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload-frame/${c.versionId}/${f.imageFileId}`,
        headers: { authorization: `Bearer ${users.userA.token}` },
        payload: body,
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    }
    if (route.key === 'DELETE /api/games/{id}/files/{fileId}/grid') {
      // Removing a grid needs one: the admin declares it first.
      const declared = await call(t, 'PUT', `/api/games/${f.game.id}/files/${f.imageFileId}/grid`, {
        token: users.admin.token,
        payload: { frameWidth: 8, frameHeight: 8 },
      });
      expect(declared.statusCode, declared.body).toBe(200);
    }
    if (route.key === 'DELETE /api/game-versions/{versionId}/files/{fileId}') {
      // "Restore original" needs a replacement to remove: user A uploads one first.
      const replaced = await t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload/${c.versionId}/${f.imageFileId}`,
        headers: { authorization: `Bearer ${users.userA.token}` },
        payload: multipart([{ name: 'hero.png', content: png }]),
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    }
    if (route.path.includes('{entryId}')) {
      // A history entry: user A replaces the image first, which adds one.
      const replaced = await t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload/${c.versionId}/${f.imageFileId}`,
        headers: { authorization: `Bearer ${users.userA.token}` },
        payload: multipart([{ name: 'hero.png', content: png }]),
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      const history = await call(
        t,
        'GET',
        `/api/game-versions/${c.versionId}/files/${f.imageFileId}/history`,
        { token: users.userA.token },
      );
      params.entryId = history.json<{ entries: { id: number }[] }>().entries[0]!.id;
    }
    if (route.path.includes('{grant}')) {
      // An image preview (decision 0038): user A's URL of the sprite sheet's preview, from A's file list.
      const listed = await call(t, 'GET', `/api/games/${f.game.id}/files`, { token: users.userA.token });
      const url = listed.json<GameFile[]>().find((file) => file.fileId === f.imageFileId)!.previews!.preview;
      [params.grant, params.name] = url.split('/').slice(3) as [string, string];
    }
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`${route.key}: no fixture for the path parameter ${name}`);
      return String(params[name]);
    });
    // The fit preview's mode is a required query parameter.
    const url =
      route.key === 'POST /api/game-versions/{versionId}/files/{fileId}/fit-preview'
        ? `${path}?fit=cover`
        : path;
    const unique = signupBody();
    const bodies: Record<string, unknown> = {
      'POST /api/user/login': { email: users.userB.email, password: users.userB.password },
      'POST /api/user/signup': signupBody(),
      'POST /api/user/create': signupBody(),
      'POST /api/user/list': {},
      // A new email needs the caller's password, and ends their other sessions (the caller is replaced).
      'PUT /api/user/update': {
        username: unique.username,
        email: unique.email,
        currentPassword: caller?.password ?? 'Passw0rd-test',
      },
      'PUT /api/user/update/password': {
        oldPassword: caller?.password ?? 'Passw0rd-test',
        newPassword: 'Passw0rd-new1',
      },
      'POST /api/user/forgot-password': { email: users.userB.email },
      'POST /api/user/reset-password': { token: 'x'.repeat(43), password: 'Passw0rd-new1' },
      'POST /api/user/verify-email': { token: 'x'.repeat(43) },
      'PUT /api/user/mail-settings': { inboxMail: 'digest' },
      'POST /api/user-games': { userId: users.userB.id, gameId: f.game.id, userGameTypeId: 1, jobPrice: 10 },
      'POST /api/user-games/filter': {},
      'PUT /api/user-games/{id}': {
        userId: users.userA.id,
        gameId: f.game.id,
        userGameTypeId: 1,
        jobPrice: 20,
      },
      'POST /api/games/filter': {},
      'POST /api/games/{id}/files/filter': {},
      'POST /api/games': {
        name: `Matrix new ${unique.username}`,
        description: 'Matrix',
        width: 480,
        height: 640,
      },
      'PATCH /api/games/{id}': {
        name: 'Matrix renamed',
        description: 'Matrix',
        width: 480,
        height: 640,
        gameStatusTypeId: 1,
        isActive: true,
      },
      'POST /api/game/upload/{id}': multipart([{ name: 'more.png', path: 'more.png', content: png }]),
      'POST /api/game/upload-zip/{id}': multipart([{ name: 'game.zip', content: 'not a zip' }]),
      'POST /api/game-versions/filter': {},
      'POST /api/game-versions/done': { id: c.versionId },
      'POST /api/game-versions': {
        name: 'Matrix second',
        description: 'Matrix',
        gameId: f.game.id,
        userGamesId: c.userGameId,
      },
      'PATCH /api/game-versions/{id}': { name: 'Matrix renamed', description: 'Matrix' },
      'POST /api/game-version/upload/{versionId}/{fileId}': multipart([{ name: 'hero.png', content: png }]),
      'POST /api/game-version/upload-frame/{versionId}/{fileId}': (() => {
        const body = new FormData();
        body.append('frame', 'hero');
        body.append('file', new Blob([png]), 'hero.png');
        return body;
      })(),
      'POST /api/game-versions/{versionId}/batch': (() => {
        const body = new FormData();
        body.append('path', 'export/hero.png');
        body.append('file', new Blob([png]), 'hero.png');
        return body;
      })(),
      'POST /api/game-versions/{versionId}/files/{fileId}/fit-preview': multipart([
        { name: 'hero.png', content: png },
      ]),
      'PUT /api/games/{id}/files/{fileId}/grid': { frameWidth: 8, frameHeight: 8, margin: 0, spacing: 0 },
      'PUT /api/game-versions/{versionId}/verdict': { verdict: 'approved', note: 'Good.' },
      'POST /api/game-versions/{versionId}/notes': { text: 'A note on the hero.', fileId: f.imageFileId },
      'PATCH /api/notes/{noteId}': { resolved: true },
      'POST /api/inbox/read': { all: true },
      'POST /api/games/{id}/psd-files': multipart([{ name: 'more.psd', path: 'more.psd', content: 'psd' }]),
    };
    return { url, payload: bodies[route.key] };
  }

  it('[API-7] every /api route answers each role (anonymous, demo, user A, user B, admin) as authorization-matrix.data.ts expects (83 routes × 5 = 415 cells today, the count is logged)', async () => {
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes
      .filter((route) => !(route.key in expectedStatuses))
      .map((route) => `route ${route.key} has no expected statuses`);
    if (!process.env.MATRIX_RECORD) expect(missing).toEqual([]);
    const stale = Object.keys(expectedStatuses).filter((key) => !routes.some((route) => route.key === key));
    if (!process.env.MATRIX_RECORD) expect(stale, 'rows of routes the app no longer has').toEqual([]);

    const observed: Record<string, Record<Role, number>> = {};
    const wrong: string[] = [];
    let cells = 0;
    for (const route of routes) {
      await ensureUser('admin');
      const f = await readyGame();
      observed[route.key] = {} as Record<Role, number>;
      for (const role of roles) {
        for (const r of Object.keys(roleOf) as (keyof typeof roleOf)[]) await ensureUser(r);
        const c = await cellFixtures(f);
        const { url, payload } = await requestFor(route, role, f, c);
        const token = role === 'anonymous' ? undefined : users[role].token;
        const response: LightMyRequestResponse = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ...(payload !== undefined ? { payload: payload as string } : {}),
        });
        cells += 1;
        observed[route.key][role] = response.statusCode;
        const expected = expectedStatuses[route.key]?.[role];
        if (response.statusCode !== expected)
          wrong.push(
            `${route.key} as ${role}: ${response.statusCode} (expected ${expected}) ${response.body.slice(0, 160)}`,
          );
      }
    }
    if (process.env.MATRIX_RECORD) console.log(JSON.stringify(observed, null, 1));
    console.log(
      `authorization matrix on ${testDb}: ${routes.length} routes × ${roles.length} roles = ${cells} cells`,
    );
    expect(wrong).toEqual([]);
  }, 240_000);
});
