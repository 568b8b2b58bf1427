import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, xsrf, type User } from '@reskin/contract';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  login,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

const cookieHeader = (value: string) => ({ cookie: `${xsrf.cookie}=${value}` });

describe(`[SES-6] XSRF double submit on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t.close());

  it('[SES-6] a GET without the cookie gets a readable XSRF-TOKEN cookie (SameSite=Strict, path /)', async () => {
    const response = await call(t, 'GET', '/api/config');
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === xsrf.cookie);
    expect(cookie).toBeDefined();
    expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(cookie!.path).toBe('/');
    expect(String(cookie!.sameSite).toLowerCase()).toBe('strict');
    expect(cookie!.httpOnly).not.toBe(true);
    // Each client gets its own value.
    const other = (await call(t, 'GET', '/api/config')).cookies.find((c) => c.name === xsrf.cookie);
    expect(other!.value).not.toBe(cookie!.value);
  });

  it('[SES-6] a request that already carries the cookie gets no new one, and a GET needs no header', async () => {
    const response = await call(t, 'GET', '/api/user/me', {
      token: admin.token,
      headers: cookieHeader('abc123'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === xsrf.cookie)).toBeUndefined();
  });

  it('[SES-6] POST, PUT and DELETE with the cookie but without a matching X-XSRF-TOKEN answer 403 XSRF_TOKEN_MISMATCH and change nothing', async () => {
    const user = await createUser(t);
    const attempts: [string, 'POST' | 'PUT' | 'DELETE', string, unknown, Record<string, string>][] = [
      [
        'login without header',
        'POST',
        '/api/user/login',
        { email: user.email, password: user.password },
        cookieHeader('tok-1'),
      ],
      [
        'list with another header',
        'POST',
        '/api/user/list',
        {},
        { ...cookieHeader('tok-1'), [xsrf.header]: 'tok-2' },
      ],
      [
        'update without header',
        'PUT',
        '/api/user/update',
        { username: `xsrf_${user.id}`, email: user.email },
        cookieHeader('tok-1'),
      ],
      [
        'role with an empty header',
        'PUT',
        `/api/user/role/${user.id}/${RoleType.Demo}`,
        undefined,
        { ...cookieHeader('tok-1'), [xsrf.header]: '' },
      ],
      ['disable without header', 'DELETE', '/api/user/disable', undefined, cookieHeader('tok-1')],
      [
        'delete with a prefix of the cookie',
        'DELETE',
        `/api/user/delete/${user.id}`,
        undefined,
        { ...cookieHeader('tok-12'), [xsrf.header]: 'tok-1' },
      ],
    ];
    for (const [label, method, url, payload, headers] of attempts) {
      const token =
        url.includes('/role/') || url.includes('/delete/') || url.includes('/list')
          ? admin.token
          : user.token;
      const response = await call(t, method, url, { token, payload, headers });
      expect(response.statusCode, label).toBe(403);
      expect(errorOf(response), label).toMatchObject({
        statusCode: 403,
        name: 'ForbiddenError',
        code: errorCodes.xsrf,
      });
    }
    const me = await call(t, 'GET', '/api/user/me', { token: user.token });
    expect(me.statusCode).toBe(200);
    expect(me.json<User>()).toMatchObject({
      username: user.username,
      roleTypeId: RoleType.User,
      activated: true,
    });
  });

  it('[SES-6] with the matching X-XSRF-TOKEN header the same requests pass', async () => {
    const user = await createUser(t);
    const headers = { ...cookieHeader('matching-token-1'), [xsrf.header]: 'matching-token-1' };
    const signedIn = await call(t, 'POST', '/api/user/login', {
      payload: { email: user.email, password: user.password },
      headers,
    });
    expect(signedIn.statusCode).toBe(200);
    expect(
      (await call(t, 'POST', '/api/user/list', { token: admin.token, payload: {}, headers })).statusCode,
    ).toBe(200);
    const update = await call(t, 'PUT', '/api/user/update', {
      token: user.token,
      payload: { username: `xsrf_ok_${user.id}`, email: user.email },
      headers,
    });
    expect(update.statusCode).toBe(200);
    expect(
      (await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.Demo}`, { token: admin.token, headers }))
        .statusCode,
    ).toBe(204);
    // The header name is case-insensitive, as HTTP headers are.
    const lower = { ...cookieHeader('matching-token-1'), 'x-xsrf-token': 'matching-token-1' };
    expect(
      (
        await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.User}`, {
          token: admin.token,
          headers: lower,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await call(t, 'DELETE', `/api/user/delete/${user.id}`, { token: admin.token, headers })).statusCode,
    ).toBe(204);
  });

  it('[SES-6] requests without the cookie (API clients) are not checked', async () => {
    const user = await createUser(t);
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);
    const update = await call(t, 'PUT', '/api/user/update', {
      token: user.token,
      payload: { username: `api_${user.id}`, email: user.email },
      headers: { [xsrf.header]: 'a-header-without-cookie' },
    });
    expect(update.statusCode).toBe(200);
    expect((await call(t, 'DELETE', '/api/user/disable', { token: user.token })).statusCode).toBe(204);
  });
});

describe(`[API-1] login and signup rate limit on ${testDb}`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ authRateLimitMax: 3 });
  });
  afterAll(async () => t.close());

  it('[API-1] the 4th login within a minute answers 429 with the envelope (RATE_LIMITED); other calls are not limited', async () => {
    const user = await createUser(t); // one signup and one login
    expect((await login(t, user.email, 'wrong-password')).statusCode).toBe(401);
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);

    const limited = await login(t, user.email, user.password);
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toEqual({
      statusCode: 429,
      name: 'TooManyRequestsError',
      message: expect.any(String),
      code: errorCodes.rateLimited,
      details: [],
    });
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.body).not.toContain('"token"');

    // A correct password does not get around it either, nor does an invalid body.
    expect((await login(t, user.email, user.password)).statusCode).toBe(429);

    // Calls other than login and signup are not rate limited.
    for (let i = 0; i < 5; i++) {
      expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(200);
    }
  });

  it('[API-1] signup is rate limited too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await call(t, 'POST', '/api/user/signup', { payload: { username: `rate${i}` } });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(errorOf(response).code).toBe(errorCodes.rateLimited);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(3);
  });

  it('[API-1] a forged X-Forwarded-For does not escape the limit (no proxy is trusted by default)', async () => {
    const limited = await createTestApp({ authRateLimitMax: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await call(limited, 'POST', '/api/user/login', {
          payload: { email: 'nobody@example.com', password: 'wrong-password' },
          headers: { 'x-forwarded-for': `10.0.0.${i}` },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(3)).toEqual([429, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
