import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { RoleType, errorCodes, type Game, type GameVersion } from '@reskin/contract';
import { nowIso } from '../src/db/database';
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

/**
 * A zip or helper-file download URL carries its user's token version (decision 0013) and is
 * refused (403 in the envelope) once that changes: a password change, an admin's reset, a role change, a suspension,
 * an email change, or the user deleted. Two app servers on one database (SQLite file or PostgreSQL schema), each
 * keeping session users a minute: a URL made on one is refused on both as soon as the change is made on the other,
 * since a download reads its ticket's user anew.
 */

interface HelperList {
  files: { id: number; name: string; url: string }[];
}

/** A way to revoke the artist's sessions, made through the API of one server (`t`). */
type Revocation = (t: TestApp, admin: TestUser, artist: TestUser) => Promise<LightMyRequestResponse>;

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
    'the user deleted',
    (t, admin, artist) => call(t, 'DELETE', `/api/user/delete/${artist.id}`, { token: admin.token }),
  ],
];

describe(`[API-7] download links end with their user's token version, across two servers, on ${testDb}`, () => {
  const cacheMs = 60_000;
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let game: Game;

  beforeAll(async () => {
    a = await createTestApp({ playAccessCacheMs: cacheMs });
    b = await createTestApp({ playAccessCacheMs: cacheMs }, { dataDir: a.config.dataDir, schema: a.schema });
    admin = await createUser(a, RoleType.Admin);
    game = await createGame(a, admin.token, { name: 'Downloads', description: 'x', width: 480, height: 640 });
    const uploaded = await a.app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/psd-files/`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: filesForm([{ path: 'hero.psd', content: 'PSD-BYTES' }]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** An artist assigned to the game, with a version of their own. */
  async function artistWithVersion(): Promise<{ artist: TestUser; version: GameVersion }> {
    const artist = await createUser(a);
    const now = nowIso();
    const userGame = await a.database.db
      .insertInto('userGames')
      .values({
        userId: artist.id,
        gameId: game.id,
        userGameTypeId: 1,
        jobPrice: 10,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const version = await call(a, 'POST', '/api/game-versions', {
      token: artist.token,
      payload: { name: 'Mine', description: 'My look', gameId: game.id, userGamesId: Number(userGame.id) },
    });
    expect(version.statusCode, version.body).toBe(201);
    return { artist, version: version.json<GameVersion>() };
  }

  /** The helper file's and the version zip's download URLs, as the server `t` makes them for `token`. */
  async function downloadUrls(t: TestApp, token: string, versionId: number): Promise<string[]> {
    const list = await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token });
    expect(list.statusCode, list.body).toBe(200);
    const zip = await call(t, 'GET', `/api/game-versions/${versionId}/zip-url`, { token });
    expect(zip.statusCode, zip.body).toBe(200);
    return [list.json<HelperList>().files[0]!.url, zip.json<{ url: string }>().url];
  }

  /** Opens a URL as a new window does: no Authorization header, the ticket in the query string. */
  function open(t: TestApp, url: string) {
    return t.app.inject({ method: 'GET', url });
  }

  function expectRefused(response: LightMyRequestResponse, label: string) {
    expect(response.statusCode, `${label}: ${response.body}`).toBe(403);
    expect(errorOf(response), label).toMatchObject({
      statusCode: 403,
      name: 'ForbiddenError',
      code: errorCodes.forbidden,
    });
  }

  it.each(revocations)(
    'after %s, URLs made before answer 403 on both servers at once',
    async (_name, revoke) => {
      const { artist, version } = await artistWithVersion();
      // Made on server B, working on both.
      const urls = await downloadUrls(b, artist.token, version.id);
      for (const url of urls) {
        for (const [server, t] of [
          ['A', a],
          ['B', b],
        ] as const)
          expect((await open(t, url)).statusCode, `${server} ${url}`).toBe(200);
      }

      const revoked = await revoke(a, admin, artist);
      expect(revoked.statusCode, revoked.body).toBeLessThan(300);
      for (const url of urls) {
        for (const [server, t] of [
          ['A', a],
          ['B', b],
        ] as const)
          expectRefused(await open(t, url), `${server} ${url}`);
      }
    },
  );

  it("after a password change, the session's new token makes URLs that work on both servers; the old ones stay refused", async () => {
    const { artist, version } = await artistWithVersion();
    const before = await downloadUrls(a, artist.token, version.id);
    const changed = await call(a, 'PUT', '/api/user/update/password', {
      token: artist.token,
      payload: { oldPassword: artist.password, newPassword: 'N3w-password!' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await downloadUrls(a, changed.json<{ token: string }>().token, version.id);
    const [helper, zip] = after;
    for (const t of [a, b]) {
      const file = await open(t, helper!);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.body).toBe('PSD-BYTES');
      const archive = await open(t, zip!);
      expect(archive.statusCode, archive.body).toBe(200);
      expect(archive.headers['content-type']).toBe('application/zip');
      for (const url of before) expectRefused(await open(t, url), url);
    }
  });

  it('a forged ticket, or one for another file, is still a 404 like no ticket', async () => {
    const { artist, version } = await artistWithVersion();
    const [helper, zip] = await downloadUrls(a, artist.token, version.id);
    const ticketOf = (url: string) => new URL(url, 'http://x').searchParams.get('ticket')!;
    expect(
      (await open(a, `/api/files/${version.id}/${game.id}/files.zip?ticket=${ticketOf(helper!)}`)).statusCode,
    ).toBe(404);
    expect(
      (await open(a, `${new URL(helper!, 'http://x').pathname}?ticket=${ticketOf(zip!)}`)).statusCode,
    ).toBe(404);
    expect((await open(b, zip!.replace(/ticket=.*/, 'ticket=forged'))).statusCode).toBe(404);
  });
});
