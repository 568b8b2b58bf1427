import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, type Game, type GameFile, type GamePath } from '@reskin/contract';
import { call, createTestApp, createUser, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';
import { maxKeptIdentity } from '../src/play/play-bodies';

/** What the game's own page sends for a fetch (Fetch Metadata): the play origin redirects it to the shared URL. */
const fetchFromGame = {
  'sec-fetch-site': 'same-origin',
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
};

describe(`every capability in a URL stays out of the log, allowed or refused, on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let game: Game;
  /** Every line both origins logged (LOG_LEVEL=trace: each request as it begins and as it ends). */
  const lines: string[] = [];
  const log = () => lines.join('');

  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'trace' }, undefined, {
      logDestination: { write: (line: string) => void lines.push(line) },
    });
    admin = await createUser(t, RoleType.Admin);
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Logged', description: 'x', width: 480, height: 640 },
      })
    ).json<Game>();
    const body = new FormData();
    for (const [path, content] of [
      ['index.html', '<!doctype html><img src="hero.png">'],
      ['hero.png', await solidPng(32, 24, 'orange')],
      // Larger than what the play origin answers in place (decision 0065), so the game's request for it is redirected.
      ['levels.json', JSON.stringify({ levels: 'x'.repeat(maxKeptIdentity) })],
    ] as const) {
      body.append('fullPath', path);
      body.append('file', new Blob([content]), path);
    }
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${game.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const helper = new FormData();
    helper.append('fullPath', 'notes.txt');
    helper.append('file', new Blob(['notes']), 'notes.txt');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/games/${game.id}/psd-files/`,
          headers: { authorization: `Bearer ${admin.token}` },
          payload: helper,
        })
      ).statusCode,
    ).toBe(200);
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    await call(
      t,
      'PATCH',
      `/api/games/${game.id}/files/${files.find((f) => f.path === 'index.html')!.fileId}/index`,
      { token: admin.token },
    );
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    await t.generation.idle();
  });
  afterAll(async () => t.close());

  /** Requests `url` on `origin`; the capability `secret` must then be nowhere in the log, and the URL's rest must be. */
  async function expectRedacted(
    origin: 'app' | 'play',
    url: string,
    secret: string,
    status: number,
    headers: Record<string, string> = {},
  ) {
    const before = lines.length;
    const response = await (origin === 'app' ? t.app : t.playApp).inject({ method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(status);
    const written = lines.slice(before).join('');
    expect(written).toContain('[redacted]');
    expect(written).not.toContain(secret);
    return response;
  }

  it('a play link (/p/<token>/...), served and refused: the token is never logged', async () => {
    const paths = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
    ).json<GamePath>();
    const url = new URL(paths.wtmFile);
    const token = url.pathname.split('/')[2]!;
    await expectRedacted('play', url.pathname, token, 200);
    await expectRedacted('play', `/p/${token}x/index.html`, `${token}x`, 403);
    // Spelled so that no route matches (a 404): still not logged.
    await expectRedacted('play', `//P//${token}/index.html`, token, 404);
    expect(log()).not.toContain(token);
  });

  it('a shared URL (/s/<token>/...), served and refused: the token is never logged', async () => {
    const paths = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
    ).json<GamePath>();
    const root = new URL(paths.wtmFile).pathname.replace(/index\.html$/, '');
    const redirect = await expectRedacted(
      'play',
      `${root}levels.json`,
      root.split('/')[2]!,
      302,
      fetchFromGame,
    );
    const shared = String(redirect.headers.location);
    const token = shared.split('/')[2]!;
    expect(shared.startsWith('/s/')).toBe(true);
    await expectRedacted('play', shared, token, 200);
    await expectRedacted('play', shared.replace(token, `${token}x`), `${token}x`, 403);
    expect(log()).not.toContain(token);
  });

  it("an image preview's grant (/api/previews/<grant>/...), served and refused: the grant is never logged", async () => {
    const hero = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token }))
      .json<GameFile[]>()
      .find((f) => f.path === 'hero.png')!;
    const previewUrl = hero.previews!.thumbnail;
    const grant = previewUrl.split('/')[3]!;
    await expectRedacted('app', previewUrl, grant, 200);
    await expectRedacted('app', previewUrl.replace(grant, `${grant}x`), `${grant}x`, 404);
    expect(log()).not.toContain(grant);
  });

  it("a download ticket (?ticket=), served and refused, and a reset link's token: neither is logged", async () => {
    const {
      files: [helper],
    } = (await call(t, 'GET', `/api/games/${game.id}/psd-files/`, { token: admin.token })).json<{
      files: { url: string }[];
    }>();
    const ticket = new URL(helper!.url, 'http://app.test').searchParams.get('ticket')!;
    await expectRedacted('app', helper!.url, ticket, 200);
    await expectRedacted('app', helper!.url.replace(ticket, `${ticket}x`), `${ticket}x`, 404);
    // The name spelled with an escape is the same parameter to the server.
    await expectRedacted('app', `${helper!.url.split('?')[0]}?t%69cket=${ticket}`, ticket, 200);
    expect(log()).not.toContain(ticket);
    // The web app's pages that mails link to (no web build here: a 503, logged as a refusal is).
    await expectRedacted(
      'app',
      '/reset-password?token=reset-secret-0123456789',
      'reset-secret-0123456789',
      503,
    );
    await expectRedacted(
      'app',
      '/verify-email?page=1&token=verify-secret-0123456789',
      'verify-secret-0123456789',
      503,
    );
  });
});
