import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, type Game, type GameFile, type GamePath } from '@reskin/contract';
import {
  call,
  createGame,
  createTestApp,
  createUser,
  filesForm,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/** Decision 0017: with `{game}` in PLAY_ORIGIN every game is played on a host of its own, and only there. */
describe(`a play origin per game on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  const games: Game[] = [];

  async function readyGame(name: string): Promise<Game> {
    const game = await createGame(t, admin.token, { name, description: 'x', width: 480, height: 640 });
    const form = filesForm([{ path: 'index.html', content: `<!doctype html><title>${name}</title>` }]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: form,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const [index] = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(t, 'PATCH', `/api/games/${game.id}/files/${index!.fileId}/index`, { token: admin.token });
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
    const ready = (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>();
    expect(ready.gameStatusTypeId).toBe(GameStatus.Ready);
    return ready;
  }

  beforeAll(async () => {
    t = await createTestApp({ playOrigin: 'http://g{game}.play.test' });
    admin = await createUser(t, RoleType.Admin);
    games.push(await readyGame('First'), await readyGame('Second'));
  });
  afterAll(async () => t.close());

  it("answers play URLs on the game's own host, and the app lets frames and images come from every game's host", async () => {
    for (const game of games) {
      const paths = (
        await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
      ).json<GamePath>();
      for (const url of [paths.rootPath, paths.orjFile, paths.emtFile, paths.wtmFile])
        expect(new URL(url).host).toBe(`g${game.id}.play.test`);
    }
    const csp = (await t.app.inject({ method: 'GET', url: '/api/config' })).headers[
      'content-security-policy'
    ];
    expect(csp).toContain('frame-src http://*.play.test');
    expect(csp).toMatch(/img-src [^;]*http:\/\/\*\.play\.test/);
  });

  it("serves a game on its own host only: another game's host, or the bare play domain, is refused", async () => {
    const [first, second] = games as [Game, Game];
    const url = new URL(
      (await call(t, 'GET', `/api/games/${first.id}/path/`, { token: admin.token })).json<GamePath>().orjFile,
    );
    const on = (host: string) => t.playApp.inject({ method: 'GET', url: url.pathname, headers: { host } });
    const own = await on(`g${first.id}.play.test`);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('<title>First</title>');
    for (const host of [`g${second.id}.play.test`, 'play.test', `g${first.id}.play.test.evil.example`]) {
      const refused = await on(host);
      expect(refused.statusCode, host).toBe(403);
      expect(refused.json()).toMatchObject({ error: { statusCode: 403, code: 'FORBIDDEN' } });
    }
  });
});
