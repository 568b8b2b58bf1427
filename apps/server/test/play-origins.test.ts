import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, type Game, type GamePath } from '@reskin/contract';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { readyGame } from './support/ready-game';

/** Decision 0017: with `{game}` in PLAY_ORIGIN every game is played on a host of its own, and only there. */
describe(`a play origin per game on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  const games: Game[] = [];

  beforeAll(async () => {
    t = await createTestApp({ playOrigin: 'http://g{game}.play.test' });
    admin = await createUser(t, RoleType.Admin);
    for (const name of ['First', 'Second']) {
      const page = [{ path: 'index.html', content: `<!doctype html><title>${name}</title>` }];
      games.push((await readyGame(t, admin, name, page)).game);
    }
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
