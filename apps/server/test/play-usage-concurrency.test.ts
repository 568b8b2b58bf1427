import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  type FileUsage,
  type Game,
  type GameFile,
  type GamePath,
} from '@reskin/contract';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';

const files = 20;
const requests = 200;

/**
 * Many plays at once (decision 0023): 200 file requests in parallel, spread over the apps (two app
 * servers on one PostgreSQL schema; one app on SQLite), with writes of the counts running between them. Every
 * request is answered (no 5xx) and, once each app has written what it counted, every load is in the record.
 */
describe(`many plays at once on ${testDb}: no lost counts, no 5xx`, () => {
  const apps: TestApp[] = [];
  let admin: TestUser;
  let game: Game;
  let root: string;

  beforeAll(async () => {
    const first = await createTestApp();
    apps.push(first);
    // On PostgreSQL a second app server on the same schema (the same JWT secret, so it takes the same links).
    if (testDb === 'postgres')
      apps.push(await createTestApp({}, { dataDir: first.config.dataDir, schema: first.schema }));
    admin = await createUser(first, RoleType.Admin);
    game = (
      await call(first, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Busy', description: 'x', width: 480, height: 640 },
      })
    ).json<Game>();
    const body = new FormData();
    body.append('fullPath', 'index.html');
    body.append('file', new Blob(['<!doctype html><p>busy</p>']), 'index.html');
    for (let i = 0; i < files; i++) {
      body.append('fullPath', `img/${i}.png`);
      body.append('file', new Blob([await solidPng(4, 4)]), `img/${i}.png`);
    }
    expect(
      (
        await first.app.inject({
          method: 'POST',
          url: `/api/game/upload/${game.id}`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: body,
        })
      ).statusCode,
    ).toBe(200);
    const index = (await call(first, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((file) => file.path === 'index.html')!;
    await call(first, 'PATCH', `/api/games/${game.id}/files/${index.fileId}/index`, { token: admin.token });
    await call(first, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await first.generation.idle();
    expect(
      (await call(first, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>()
        .gameStatusTypeId,
    ).toBe(GameStatus.Ready);
    root = new URL(
      (await call(first, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })).json<GamePath>()
        .rootPath,
    ).pathname;
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
  });

  it(`answers ${requests} parallel file requests and counts each one`, async () => {
    const statuses = await Promise.all(
      Array.from({ length: requests }, async (_, i) => {
        const app = apps[i % apps.length]!;
        // Writes run while requests are still coming in, on every app.
        if (i % 25 === 0) void app.playUsage!.flush();
        const response = await app.playApp.inject({ method: 'GET', url: `${root}img/${i % files}.png` });
        return response.statusCode;
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await Promise.all(apps.map((app) => app.playUsage!.flush()));

    const usage = (await call(apps[0]!, 'GET', `/api/games/${game.id}/usage`, { token: admin.token })).json<
      FileUsage[]
    >();
    const images = usage.filter((file) => file.path.startsWith('img/'));
    expect(images).toHaveLength(files);
    expect(images.map((file) => file.loads)).toEqual(Array.from({ length: files }, () => requests / files));
    expect(images.reduce((sum, file) => sum + file.loads, 0)).toBe(requests);
  });
});
