import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, type Game } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { call, createTestApp, createUser, errorOf, testDb, type TestApp, type TestUser } from './helpers';

interface HelperList {
  path: string;
  files: { id: number; name: string; size: number; url: string }[];
}

describe(`[API-3] helper files (psd-files) on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let stranger: TestUser;
  let game: Game;

  async function upload(files: { path: string; content: string }[], token = admin.token) {
    const body = new FormData();
    for (const file of files) {
      body.append('fullPath', file.path);
      body.append('file', new Blob([file.content]), file.path);
    }
    return t.app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/psd-files/`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
  }

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist, stranger] = [
      await createUser(t, RoleType.Admin),
      await createUser(t),
      await createUser(t),
    ];
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'H', description: 'x', width: 300, height: 400 },
      })
    ).json<Game>();
    const now = nowIso();
    await t.database.db
      .insertInto('userGames')
      .values({
        userId: artist.id,
        gameId: game.id,
        userGameTypeId: 1,
        jobPrice: 5,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
  });
  afterAll(async () => t.close());

  it('an admin uploads helper files; an assigned artist lists them and downloads one with its ticket', async () => {
    expect(
      (
        await upload([
          { path: 'sources/hero.psd', content: 'PSD-BYTES' },
          { path: 'Font Guide.txt', content: 'use Comic' },
        ])
      ).statusCode,
    ).toBe(200);
    const list = await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: artist.token });
    expect(list.statusCode).toBe(200);
    const body = list.json<HelperList>();
    expect(body.files.map((f) => [f.name, f.size])).toEqual([
      ['Font Guide.txt', 9],
      ['sources/hero.psd', 9],
    ]);
    // The URL works without any Authorization header, as a new window opens it.
    const psd = body.files.find((f) => f.name === 'sources/hero.psd')!;
    const download = await t.app.inject({ method: 'GET', url: psd.url });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('PSD-BYTES');
    expect(download.headers['content-disposition']).toContain("filename*=UTF-8''hero.psd");
    // The ticket is scoped to that one file.
    const other = body.files.find((f) => f.name === 'Font Guide.txt')!;
    const ticket = new URL(psd.url, 'http://x').searchParams.get('ticket');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/games/${game.id}/psd-files/${other.id}?ticket=${ticket}`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/games/${game.id}/psd-files/${psd.id}?ticket=forged` }))
        .statusCode,
    ).toBe(404);
    // The Authorization header works too, for scripts.
    expect(
      (await call(t, 'GET', `/api/games/${game.id}/psd-files/${other.id}`, { token: artist.token })).body,
    ).toBe('use Comic');
  });

  it('an unassigned user sees nothing, a user cannot upload, and bad uploads are refused', async () => {
    expect(
      (await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect((await call(t, 'GET', `/api/games/${game.id}/psd-files/`)).statusCode).toBe(401);
    expect((await upload([{ path: 'x.txt', content: 'x' }], artist.token)).statusCode).toBe(403);
    const traversal = await upload([{ path: '../x.txt', content: 'x' }]);
    expect(traversal.statusCode).toBe(422);
    expect(errorOf(traversal).details?.[0]?.message).toContain('..');
    expect((await upload([{ path: 'empty.txt', content: '' }])).statusCode).toBe(422);
  });

  it('an admin deletes a helper file', async () => {
    await upload([{ path: 'gone.txt', content: 'bye' }]);
    const list = (
      await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: admin.token })
    ).json<HelperList>();
    const gone = list.files.find((f) => f.name === 'gone.txt')!;
    expect(
      (await call(t, 'DELETE', `/api/games/${game.id}/psd-files/${gone.id}`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const after = (
      await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: admin.token })
    ).json<HelperList>();
    expect(after.files.map((f) => f.name)).not.toContain('gone.txt');
  });
});
