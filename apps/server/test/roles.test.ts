import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, type User } from '@reskin/contract';
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

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe(`[API-7] roles enforced by the server on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let target: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    target = await createUser(t);
  });
  afterAll(async () => t.close());

  /** Every call that needs a login, with a body that would be valid. */
  const loggedInCalls = (): [Method, string, unknown][] => [
    ['GET', '/api/user/me', undefined],
    ['POST', '/api/user/list', {}],
    ['GET', `/api/user/detail/${target.id}`, undefined],
    ['DELETE', `/api/user/delete/${target.id}`, undefined],
    ['PUT', `/api/user/role/${target.id}/${RoleType.Demo}`, undefined],
    ['DELETE', '/api/user/disable', undefined],
    ['PUT', '/api/user/update', { username: 'anonymous', email: 'anonymous@example.com' }],
    ['PUT', '/api/user/update/password', { userId: target.id }],
    ['PUT', '/api/user/update/password', { oldPassword: 'whatever-1', newPassword: 'whatever-2' }],
    ['GET', '/api/admin/update', undefined],
  ];

  /** Every admin call, with a body that would be valid. */
  const adminCalls = (): [Method, string, unknown][] => [
    ['POST', '/api/user/list', {}],
    ['POST', '/api/user/list', { where: { username: { like: '%' } }, fields: ['id', 'username'] }],
    ['DELETE', `/api/user/delete/${target.id}`, undefined],
    ['PUT', `/api/user/role/${target.id}/${RoleType.Admin}`, undefined],
    ['PUT', `/api/user/role/${target.id}/${RoleType.Demo}`, undefined],
    ['PUT', '/api/user/update/password', { userId: target.id }],
    ['GET', '/api/admin/update', undefined],
  ];

  async function expectTargetUnchanged() {
    const detail = await call(t, 'GET', `/api/user/detail/${target.id}`, { token: admin.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json<User>()).toMatchObject({ id: target.id, roleTypeId: RoleType.User, activated: true });
    expect((await login(t, target.email, target.password)).statusCode).toBe(200);
  }

  it('[API-7] anonymous callers get 401 UNAUTHORIZED on every logged-in and admin call', async () => {
    for (const [method, url, payload] of loggedInCalls()) {
      const response = await call(t, method, url, { payload });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(errorOf(response), `${method} ${url}`).toMatchObject({
        statusCode: 401,
        name: 'UnauthorizedError',
        code: errorCodes.unauthorized,
      });
    }
    await expectTargetUnchanged();
  });

  it('[API-7] anonymous callers are refused before the body or the path is read (401, not 422)', async () => {
    for (const [method, url, payload] of [
      ['POST', '/api/user/list', { limit: 1000, nope: true }],
      ['PUT', '/api/user/role/abc/5', undefined],
      ['GET', '/api/user/detail/abc', undefined],
      ['PUT', '/api/user/update', { username: 'a' }],
      ['PUT', '/api/user/update/password', 'not json at all'],
    ] as [Method, string, unknown][]) {
      const response = await call(t, method, url, { payload });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  for (const [label, role] of [
    ['a regular user (100)', RoleType.User],
    ['a demo user (1000)', RoleType.Demo],
  ] as const) {
    it(`[API-7] ${label} gets 403 FORBIDDEN on every admin call, and nothing changes`, async () => {
      const caller = await createUser(t, role);
      for (const [method, url, payload] of adminCalls()) {
        const response = await call(t, method, url, { token: caller.token, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(errorOf(response), `${method} ${url}`).toMatchObject({
          statusCode: 403,
          name: 'ForbiddenError',
          code: errorCodes.forbidden,
        });
        expect(response.body).not.toContain(target.email);
      }
      // Even an admin call on their own account, and an invalid admin body, is a 403.
      expect(
        (await call(t, 'DELETE', `/api/user/delete/${caller.id}`, { token: caller.token })).statusCode,
      ).toBe(403);
      expect(
        (await call(t, 'PUT', `/api/user/role/${caller.id}/${RoleType.Admin}`, { token: caller.token }))
          .statusCode,
      ).toBe(403);
      expect(
        (await call(t, 'POST', '/api/user/list', { token: caller.token, payload: { limit: 1000 } }))
          .statusCode,
      ).toBe(403);
      await expectTargetUnchanged();
      expect((await call(t, 'GET', '/api/user/me', { token: caller.token })).json<User>().roleTypeId).toBe(
        role,
      );
    });

    it(`[API-7] ${label} cannot see another user's detail (403) but sees their own`, async () => {
      const caller = await createUser(t, role);
      expect(
        (await call(t, 'GET', `/api/user/detail/${target.id}`, { token: caller.token })).statusCode,
      ).toBe(403);
      expect((await call(t, 'GET', `/api/user/detail/${admin.id}`, { token: caller.token })).statusCode).toBe(
        403,
      );
      expect(
        (await call(t, 'GET', `/api/user/detail/${caller.id}`, { token: caller.token })).statusCode,
      ).toBe(200);
    });
  }

  describe("an administrator's own row", () => {
    async function expectAdminUnchanged() {
      const me = await call(t, 'GET', '/api/user/me', { token: admin.token });
      expect(me.statusCode).toBe(200);
      expect(me.json<User>()).toMatchObject({ id: admin.id, roleTypeId: RoleType.Admin, activated: true });
      expect((await login(t, admin.email, admin.password)).statusCode).toBe(200);
    }

    it('[ADM-6] cannot be deleted: 403 OWN_ACCOUNT, and the admin still exists', async () => {
      const response = await call(t, 'DELETE', `/api/user/delete/${admin.id}`, { token: admin.token });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response)).toMatchObject({
        statusCode: 403,
        name: 'ForbiddenError',
        code: errorCodes.ownRow,
      });
      await expectAdminUnchanged();
    });

    it('[ADM-6] cannot have its password reset with { userId: ownId }: 403 OWN_ACCOUNT, the password still works', async () => {
      const response = await call(t, 'PUT', '/api/user/update/password', {
        token: admin.token,
        payload: { userId: admin.id },
      });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe(errorCodes.ownRow);
      expect(response.body).not.toContain('"password"');
      await expectAdminUnchanged();
    });

    it('[ADM-6] cannot be re-roled (to user, to demo, or to admin): 403 OWN_ACCOUNT, the role stays 1', async () => {
      for (const roleId of [RoleType.User, RoleType.Demo, RoleType.Admin]) {
        const response = await call(t, 'PUT', `/api/user/role/${admin.id}/${roleId}`, { token: admin.token });
        expect(response.statusCode, String(roleId)).toBe(403);
        expect(errorOf(response).code).toBe(errorCodes.ownRow);
      }
      await expectAdminUnchanged();
    });

    it("[ADM-6] another administrator can still manage it (the rule is about one's own row only)", async () => {
      const second = await createUser(t, RoleType.Admin);
      const third = await createUser(t, RoleType.Admin);
      expect(
        (await call(t, 'PUT', `/api/user/role/${third.id}/${RoleType.User}`, { token: second.token }))
          .statusCode,
      ).toBe(204);
      expect(
        (await call(t, 'DELETE', `/api/user/delete/${third.id}`, { token: second.token })).statusCode,
      ).toBe(204);
    });
  });

  describe("a demo user's own account", () => {
    it('[API-7] a demo user cannot update their account (403) and nothing changes', async () => {
      const demo = await createUser(t, RoleType.Demo);
      const response = await call(t, 'PUT', '/api/user/update', {
        token: demo.token,
        payload: { username: `changed_${demo.id}`, email: `changed_${demo.id}@example.com` },
      });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response)).toMatchObject({
        statusCode: 403,
        name: 'ForbiddenError',
        code: errorCodes.forbidden,
      });
      const me = await call(t, 'GET', '/api/user/me', { token: demo.token });
      expect(me.json<User>()).toMatchObject({ username: demo.username, email: demo.email });
    });

    it('[API-7] a demo user cannot disable their account (403) and can still log in', async () => {
      const demo = await createUser(t, RoleType.Demo);
      const response = await call(t, 'DELETE', '/api/user/disable', { token: demo.token });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe(errorCodes.forbidden);
      expect((await call(t, 'GET', '/api/user/me', { token: demo.token })).json<User>().activated).toBe(true);
      expect((await login(t, demo.email, demo.password)).statusCode).toBe(200);
    });

    it('[API-7] a demo user cannot change their password (403) and the old one still works', async () => {
      const demo = await createUser(t, RoleType.Demo);
      const response = await call(t, 'PUT', '/api/user/update/password', {
        token: demo.token,
        payload: { oldPassword: demo.password, newPassword: 'a-new-password-1' },
      });
      expect(response.statusCode).toBe(403);
      expect((await login(t, demo.email, demo.password)).statusCode).toBe(200);
      expect((await login(t, demo.email, 'a-new-password-1')).statusCode).toBe(401);
    });
  });

  it('[API-7] a regular user may update, change the password of, and disable their own account', async () => {
    const user = await createUser(t);
    const update = await call(t, 'PUT', '/api/user/update', {
      token: user.token,
      payload: { username: `own_${user.id}`, email: user.email },
    });
    expect(update.statusCode).toBe(200);
    const password = await call(t, 'PUT', '/api/user/update/password', {
      token: user.token,
      payload: { oldPassword: user.password, newPassword: 'my-own-new-pass' },
    });
    expect(password.statusCode).toBe(200);
    // The change answers the session's new token (the old one ended with it: decision 0013).
    const token = password.json<{ token: string }>().token;
    expect((await call(t, 'DELETE', '/api/user/disable', { token })).statusCode).toBe(204);
  });
});
