import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, errorCodes, type Game, type GamePath } from '@reskin/contract';
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

const token = 'metrics-token-0123456789abcdef';

/** The value of one sample of the scrape (`name{labels} value`), or undefined without such a line. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe(`[OPS] GET /api/metrics (decision 0031) on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ metricsToken: token });
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t?.close());

  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });

  it('after API requests, a generation and a play request, the scrape has every family with sane values', async () => {
    const game = await createGame(t, admin.token, {
      name: 'Metrics',
      description: 'x',
      width: 480,
      height: 640,
    });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: 'teal' } })
      .png()
      .toBuffer();
    const uploaded = await call(t, 'POST', `/api/game/upload/${game.id}`, {
      token: admin.token,
      payload: filesForm([
        { path: 'index.html', content: '<!doctype html><img src="hero.png">' },
        { path: 'hero.png', content: png },
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      { fileId: number; path: string }[]
    >();
    const index = files.find((file) => file.path === 'index.html')!;
    expect(
      (await call(t, 'PATCH', `/api/games/${game.id}/files/${index.fileId}/index`, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect((await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token })).statusCode).toBe(
      200,
    );
    await t.generation.idle();
    expect(
      (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>().gameStatusTypeId,
    ).toBe(GameStatus.Ready);
    expect((await call(t, 'GET', `/api/games/${game.id}/nope`, { token: admin.token })).statusCode).toBe(404);

    const links = (
      await call(t, 'GET', `/api/games/${game.id}/path/`, { token: admin.token })
    ).json<GamePath>();
    const hero = new URL(links.wtmFile).pathname.replace(/index\.html$/, 'hero.png');
    const played = await t.playApp.inject({ method: 'GET', url: hero });
    expect(played.statusCode).toBe(200);
    expect(played.rawPayload.length).toBeGreaterThan(0);
    // Again: a small file is answered from the play origin's kept bodies the second time.
    expect((await t.playApp.inject({ method: 'GET', url: hero })).rawPayload.equals(played.rawPayload)).toBe(
      true,
    );

    const response = await scrape(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    for (const family of [
      'reskin_http_request_duration_seconds',
      'reskin_generation_jobs_queued_total',
      'reskin_generation_jobs_running',
      'reskin_generation_jobs_failed_total',
      'reskin_generation_job_duration_seconds',
      'reskin_play_bytes_total',
      'reskin_play_file_lookups_total',
      'reskin_play_bodies_total',
      'reskin_storage_errors_total',
      'reskin_database_errors_total',
    ]) {
      expect(text, family).toContain(`# TYPE ${family} `);
    }
    // Requests by route pattern, never the raw URL; the scrape itself is not timed.
    const generate = { method: 'GET', route: '/api/games/:id/generate', status: '200' };
    expect(sample(text, 'reskin_http_request_duration_seconds_count', generate)).toBe(1);
    expect(
      sample(text, 'reskin_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/games/:id',
        status: '200',
      }),
    ).toBeGreaterThan(0);
    // The unknown path is counted under the pattern that answered it (the web app's fallback), not its URL.
    expect(sample(text, 'reskin_http_request_duration_seconds_count', { method: 'GET', status: '404' })).toBe(
      1,
    );
    expect(text).not.toContain(`/api/games/${game.id}`);
    expect(text).not.toContain('route="/api/metrics"');
    // The generation: one Gen. queued and ended Ready here; none runs now, none failed.
    expect(sample(text, 'reskin_generation_jobs_queued_total', { kind: 'full' })).toBe(1);
    expect(
      sample(text, 'reskin_generation_job_duration_seconds_count', { kind: 'full', outcome: 'ready' }),
    ).toBe(1);
    expect(sample(text, 'reskin_generation_jobs_running', { kind: 'full' })).toBe(0);
    expect(sample(text, 'reskin_generation_jobs_failed_total', { kind: 'full' }) ?? 0).toBe(0);
    // The play origin: the PNG's bytes, and its lookup (not kept: the tests keep none).
    expect(sample(text, 'reskin_play_bytes_total')).toBeGreaterThanOrEqual(played.rawPayload.length);
    expect(sample(text, 'reskin_play_file_lookups_total', { kept: 'false' })).toBeGreaterThan(0);
    expect(sample(text, 'reskin_play_bodies_total', { kept: 'false', encoding: 'identity' })).toBe(1);
    expect(sample(text, 'reskin_play_bodies_total', { kept: 'true', encoding: 'identity' })).toBe(1);
  });

  it('answers 404, as an unknown route, to a missing or wrong token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Basic ${token}`,
      `Bearer ${token}x`,
    ]) {
      const response = await scrape(authorization);
      expect(response.statusCode, authorization).toBe(404);
      expect(errorOf(response).code).toBe(errorCodes.notFound);
    }
  });

  it('answers 404 to everyone when METRICS_TOKEN is not set', async () => {
    const bare = await createTestApp();
    try {
      const response = await bare.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe(errorCodes.notFound);
    } finally {
      await bare.close();
    }
  });

  it('counts the storage errors the error envelope answers, by kind (507 STORAGE_FULL here)', async () => {
    // Every volume under its threshold: the upload is refused with 507 STORAGE_FULL.
    const full = await createTestApp({
      metricsToken: token,
      minFreeSpace: { percent: 100, bytes: Number.MAX_SAFE_INTEGER },
    });
    try {
      const owner = await createUser(full, RoleType.Admin);
      const game = await createGame(full, owner.token, {
        name: 'Full',
        description: 'x',
        width: 480,
        height: 640,
      });
      const refused = await call(full, 'POST', `/api/game/upload/${game.id}`, {
        token: owner.token,
        payload: filesForm([{ path: 'index.html', content: '<p>' }]),
      });
      expect(refused.statusCode, refused.body).toBe(507);
      const text = (
        await full.app.inject({
          method: 'GET',
          url: '/api/metrics',
          headers: { authorization: `Bearer ${token}` },
        })
      ).body;
      expect(sample(text, 'reskin_storage_errors_total', { kind: 'full' })).toBe(1);
      expect(sample(text, 'reskin_database_errors_total', { kind: 'unavailable' }) ?? 0).toBe(0);
    } finally {
      await full.close();
    }
  });
});
