import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, conflictMessages, limits, userSchema, type User } from '@reskin/contract';
import { loadConfig } from '../src/config';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  login,
  signupBody,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/** The keys a client sees on a user (the contract's userSchema): no password field of any kind. */
const userKeys = Object.keys(userSchema.shape).sort();

function tokenClaims(token: string) {
  return decodeJwt(token) as { user: Record<string, unknown>; exp: number; iat?: number };
}

describe(`[API-1] users and session calls on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t.close());

  describe('POST /api/user/login', () => {
    it('[API-1] answers { token }, a JWT whose payload has the user { id, username, email, roleTypeId } and exp 12 h ahead', async () => {
      const user = await createUser(t);
      const before = Math.floor(Date.now() / 1000);
      const response = await login(t, user.email, user.password);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ token: string }>();
      expect(Object.keys(body)).toEqual(['token']);
      expect(body.token.split('.')).toHaveLength(3);
      const claims = tokenClaims(body.token);
      expect(claims.user).toEqual({
        id: user.id,
        username: user.username,
        email: user.email,
        roleTypeId: RoleType.User,
      });
      const twelveHours = limits.sessionTokenHours * 3600;
      expect(claims.exp).toBeGreaterThanOrEqual(before + twelveHours - 5);
      expect(claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + twelveHours + 5);
    });

    it('[API-1] accepts the email in any case and with surrounding spaces', async () => {
      const user = await createUser(t);
      const response = await login(t, `  ${user.email.toUpperCase()} `, user.password);
      expect(response.statusCode).toBe(200);
      expect(tokenClaims(response.json<{ token: string }>().token).user.id).toBe(user.id);
    });

    it('[API-1] answers 401 INVALID_CREDENTIALS with no details for a wrong password and for an unknown email, alike', async () => {
      const user = await createUser(t);
      const wrongPassword = await login(t, user.email, 'not-the-password');
      const unknownEmail = await login(t, 'nobody-here@example.com', user.password);
      for (const response of [wrongPassword, unknownEmail]) {
        expect(response.statusCode).toBe(401);
        expect(errorOf(response)).toEqual({
          statusCode: 401,
          name: 'UnauthorizedError',
          message: expect.any(String),
          code: errorCodes.invalidCredentials,
          details: [],
        });
      }
      // Nothing tells an unknown email from a wrong password.
      expect(unknownEmail.json()).toEqual(wrongPassword.json());
    });
  });

  describe('GET /api/user/me', () => {
    it('[API-1] answers the current user with the contract fields', async () => {
      const user = await createUser(t);
      const response = await call(t, 'GET', '/api/user/me', { token: user.token });
      expect(response.statusCode).toBe(200);
      const me = response.json<User>();
      expect(Object.keys(me).sort()).toEqual(userKeys);
      expect(me).toMatchObject({
        id: user.id,
        username: user.username,
        email: user.email,
        roleTypeId: RoleType.User,
        activated: true,
        emailVerified: false,
      });
    });
  });

  describe('POST /api/user/signup', () => {
    it('[API-1] answers 201 with the new user (a regular user, active, email lower-cased), without password fields', async () => {
      const body = signupBody({ email: `Mixed.Case.${Date.now()}@Example.COM` });
      const response = await call(t, 'POST', '/api/user/signup', { payload: body });
      expect(response.statusCode).toBe(201);
      const user = response.json<User>();
      expect(Object.keys(user).sort()).toEqual(userKeys);
      expect(user).toMatchObject({
        id: expect.any(Number),
        username: body.username,
        email: body.email.toLowerCase(),
        firstName: body.firstName,
        lastName: body.lastName,
        phone: body.phone,
        roleTypeId: RoleType.User,
        activated: true,
        emailVerified: false,
        dataProtectionRegulationVersion: 1,
      });
      expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
      expect(response.body).not.toMatch(/password/i);
      // Logging in with the address as typed at signup works: it was stored lower-case.
      expect((await login(t, body.email, body.password)).statusCode).toBe(200);
    });

    it('[API-1] [ADM-8] an administrator adds a user with the same call', async () => {
      const body = signupBody();
      const response = await call(t, 'POST', '/api/user/signup', { token: admin.token, payload: body });
      expect(response.statusCode).toBe(201);
      expect(response.json<User>()).toMatchObject({ username: body.username, roleTypeId: RoleType.User });
    });

    it('[API-1] answers 409 with a detail on /email for an email already taken (in any case)', async () => {
      const user = await createUser(t);
      const response = await call(t, 'POST', '/api/user/signup', {
        payload: signupBody({ email: user.email.toUpperCase() }),
      });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response)).toMatchObject({
        statusCode: 409,
        name: 'ConflictError',
        code: errorCodes.emailExists,
        details: [{ path: '/email', code: 'unique', message: conflictMessages.email }],
      });
    });

    it('[API-1] answers 409 with a detail on /username for a username already taken', async () => {
      const user = await createUser(t);
      const response = await call(t, 'POST', '/api/user/signup', {
        payload: signupBody({ username: user.username, email: `other-${user.id}@example.com` }),
      });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response)).toMatchObject({
        code: errorCodes.usernameExists,
        details: [{ path: '/username', code: 'unique', message: expect.any(String) }],
      });
    });
  });

  describe('POST /api/user/create', () => {
    it('[ADM-8] an administrator adds a user: 201 with the user, as the signup answers it, who can log in', async () => {
      const body = signupBody();
      const response = await call(t, 'POST', '/api/user/create', { token: admin.token, payload: body });
      expect(response.statusCode, response.body).toBe(201);
      const user = response.json<User>();
      expect(Object.keys(user).sort()).toEqual(userKeys);
      expect(user).toMatchObject({
        username: body.username,
        email: body.email,
        roleTypeId: RoleType.User,
        activated: true,
      });
      expect(response.body).not.toMatch(/password/i);
      expect((await login(t, body.email, body.password)).statusCode).toBe(200);
    });

    it('[API-1] refuses bad data and taken emails or usernames exactly like the signup', async () => {
      const existing = await createUser(t);
      const bodies = [
        { ...signupBody(), username: 'x', phone: '(555) 123', password: 'short' },
        signupBody({ email: existing.email.toUpperCase() }),
        signupBody({ username: existing.username }),
      ];
      for (const body of bodies) {
        const created = await call(t, 'POST', '/api/user/create', { token: admin.token, payload: body });
        const signedUp = await call(t, 'POST', '/api/user/signup', { payload: body });
        expect(created.statusCode, created.body).toBeGreaterThanOrEqual(400);
        expect(created.statusCode).toBe(signedUp.statusCode);
        expect(errorOf(created)).toEqual(errorOf(signedUp));
      }
    });

    it('[API-7] answers 403 to a regular user', async () => {
      const user = await createUser(t);
      const response = await call(t, 'POST', '/api/user/create', {
        token: user.token,
        payload: signupBody(),
      });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe(errorCodes.forbidden);
    });

    it('[ADM-8] is not under the signup rate limit: with the default limit, users past it are added in the same minute', async () => {
      const { authRateLimitMax } = loadConfig({ DATA_DIR: t.config.dataDir, JWT_SECRET: t.config.jwtSecret });
      const limited = await createTestApp({ authRateLimitMax });
      try {
        const limitedAdmin = await createUser(limited, RoleType.Admin); // the first signup
        for (let i = 1; i < authRateLimitMax; i++) {
          expect(
            (await call(limited, 'POST', '/api/user/signup', { payload: signupBody() })).statusCode,
          ).toBe(201);
        }
        const refused = await call(limited, 'POST', '/api/user/signup', { payload: signupBody() });
        expect(refused.statusCode).toBe(429);
        expect(errorOf(refused).code).toBe(errorCodes.rateLimited);

        for (let i = 0; i < authRateLimitMax + 10; i++) {
          const response = await call(limited, 'POST', '/api/user/create', {
            token: limitedAdmin.token,
            payload: signupBody(),
          });
          expect(response.statusCode, `user ${i + 1} added`).toBe(201);
        }
      } finally {
        await limited.close();
      }
    });
  });

  describe('POST /api/user/list', () => {
    it('[API-1] answers an array of users for an admin', async () => {
      const user = await createUser(t);
      const response = await call(t, 'POST', '/api/user/list', { token: admin.token, payload: {} });
      expect(response.statusCode).toBe(200);
      const users = response.json<User[]>();
      expect(Array.isArray(users)).toBe(true);
      const found = users.find((u) => u.id === user.id);
      expect(found).toMatchObject({
        id: user.id,
        username: user.username,
        email: user.email,
        roleTypeId: RoleType.User,
      });
      expect(users.map((u) => u.id)).toContain(admin.id);
      for (const u of users) expect(Object.keys(u).sort()).toEqual(userKeys);
    });
  });

  describe('GET /api/user/detail/:id', () => {
    it('[API-1] answers any user to an admin', async () => {
      const user = await createUser(t);
      const response = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(userKeys);
      expect(response.json<User>()).toMatchObject({
        id: user.id,
        username: user.username,
        email: user.email,
      });
    });

    it('[API-1] answers a user their own detail', async () => {
      const user = await createUser(t);
      const response = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: user.token });
      expect(response.statusCode).toBe(200);
      expect(response.json<User>()).toMatchObject({ id: user.id, username: user.username });
    });

    it('[API-7] answers 403 to a regular user asking for another user', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      const response = await call(t, 'GET', `/api/user/detail/${other.id}`, { token: user.token });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response)).toMatchObject({
        statusCode: 403,
        name: 'ForbiddenError',
        code: errorCodes.forbidden,
      });
      expect(response.body).not.toContain(other.email);
    });

    it('[API-1] answers 404 NOT_FOUND for an unknown id', async () => {
      const response = await call(t, 'GET', '/api/user/detail/987654', { token: admin.token });
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toMatchObject({
        statusCode: 404,
        name: 'NotFoundError',
        code: errorCodes.notFound,
      });
    });
  });

  describe('DELETE /api/user/delete/:id', () => {
    it('[API-1] answers 204 with no body; afterwards the user is gone (detail 404, not listed, cannot log in)', async () => {
      const user = await createUser(t);
      const response = await call(t, 'DELETE', `/api/user/delete/${user.id}`, { token: admin.token });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const detail = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
      expect(detail.statusCode).toBe(404);
      const list = await call(t, 'POST', '/api/user/list', {
        token: admin.token,
        payload: { fields: ['id'] },
      });
      expect(list.json<{ id: number }[]>().map((u) => u.id)).not.toContain(user.id);
      expect((await login(t, user.email, user.password)).statusCode).toBe(401);
    });

    it('[API-1] answers 404 for an unknown or already deleted user', async () => {
      const user = await createUser(t);
      expect(
        (await call(t, 'DELETE', `/api/user/delete/${user.id}`, { token: admin.token })).statusCode,
      ).toBe(204);
      const again = await call(t, 'DELETE', `/api/user/delete/${user.id}`, { token: admin.token });
      expect(again.statusCode).toBe(404);
      expect(errorOf(again).code).toBe(errorCodes.notFound);
    });
  });

  describe('PUT /api/user/role/:id/:roleId', () => {
    it('[API-1] [ADM-5] answers 204 and really changes the role both ways, 100 -> 1000 -> 100', async () => {
      const user = await createUser(t);
      const toDemo = await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.Demo}`, {
        token: admin.token,
      });
      expect(toDemo.statusCode).toBe(204);
      expect(toDemo.body).toBe('');
      // A role change ends the user's sessions (decision 0013); a fresh login carries the new role in its token.
      expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(401);
      const demoToken = (await login(t, user.email, user.password)).json<{ token: string }>().token;
      expect(tokenClaims(demoToken).user.roleTypeId).toBe(RoleType.Demo);
      expect((await call(t, 'GET', '/api/user/me', { token: demoToken })).json<User>().roleTypeId).toBe(
        RoleType.Demo,
      );

      const back = await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.User}`, { token: admin.token });
      expect(back.statusCode).toBe(204);
      const userToken = (await login(t, user.email, user.password)).json<{ token: string }>().token;
      expect((await call(t, 'GET', '/api/user/me', { token: userToken })).json<User>().roleTypeId).toBe(
        RoleType.User,
      );
      const detail = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
      expect(detail.json<User>().roleTypeId).toBe(RoleType.User);
    });

    it('[API-1] a user made admin (role 1) can call admin calls once logged in again (the role change ends the old token)', async () => {
      const user = await createUser(t);
      expect((await call(t, 'POST', '/api/user/list', { token: user.token, payload: {} })).statusCode).toBe(
        403,
      );
      expect(
        (await call(t, 'PUT', `/api/user/role/${user.id}/${RoleType.Admin}`, { token: admin.token }))
          .statusCode,
      ).toBe(204);
      expect((await call(t, 'POST', '/api/user/list', { token: user.token, payload: {} })).statusCode).toBe(
        401,
      );
      const fresh = (await login(t, user.email, user.password)).json<{ token: string }>().token;
      expect((await call(t, 'POST', '/api/user/list', { token: fresh, payload: {} })).statusCode).toBe(200);
    });

    it('[API-1] refuses a role id that does not exist (5) with a 4xx and leaves the role alone', async () => {
      const user = await createUser(t);
      for (const roleId of ['5', '0', '2', 'admin', '-1']) {
        const response = await call(t, 'PUT', `/api/user/role/${user.id}/${roleId}`, { token: admin.token });
        expect(response.statusCode, roleId).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, roleId).toBeLessThan(500);
        expect(errorOf(response).code, roleId).toBe(errorCodes.validationFailed);
      }
      const detail = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
      expect(detail.json<User>().roleTypeId).toBe(RoleType.User);
    });

    it('[API-1] answers 404 for an unknown user', async () => {
      const response = await call(t, 'PUT', `/api/user/role/987654/${RoleType.Demo}`, { token: admin.token });
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe(errorCodes.notFound);
    });
  });

  describe('DELETE /api/user/disable', () => {
    it('[API-1] [ACC-3] answers 204; the account can no longer log in and its old token answers 401', async () => {
      const user = await createUser(t);
      const response = await call(t, 'DELETE', '/api/user/disable', { token: user.token });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      const again = await login(t, user.email, user.password);
      expect(again.statusCode).toBe(401);
      expect(errorOf(again).code).toBe(errorCodes.accountDisabled);
      // Only the right password learns that the account is disabled.
      expect(errorOf(await login(t, user.email, 'Wrong-passw0rd')).code).toBe(errorCodes.invalidCredentials);

      const me = await call(t, 'GET', '/api/user/me', { token: user.token });
      expect(me.statusCode).toBe(401);
      expect(errorOf(me)).toMatchObject({
        statusCode: 401,
        name: 'UnauthorizedError',
        code: errorCodes.unauthorized,
      });

      // An admin still sees the account, marked inactive.
      const detail = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
      expect(detail.json<User>().activated).toBe(false);
    });

    it("[API-1] the web client's Content-Type: application/json with an empty body is accepted", async () => {
      const user = await createUser(t);
      const response = await call(t, 'DELETE', '/api/user/disable', {
        token: user.token,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(204);
    });
  });

  describe('PUT /api/user/activate/:id', () => {
    /** The account as the admin users list shows it. */
    const listed = async (id: number) =>
      (await call(t, 'POST', '/api/user/list', { token: admin.token, payload: { where: { id } } })).json<
        User[]
      >()[0];

    it('[ACC-3] an admin re-activates a suspended account: 204, the list shows it active, and it logs in again', async () => {
      const user = await createUser(t);
      expect((await call(t, 'DELETE', '/api/user/disable', { token: user.token })).statusCode).toBe(204);
      expect((await listed(user.id))?.activated).toBe(false);

      const response = await call(t, 'PUT', `/api/user/activate/${user.id}`, { token: admin.token });
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
      expect((await listed(user.id))?.activated).toBe(true);
      const again = await login(t, user.email, user.password);
      expect(again.statusCode, again.body).toBe(200);
      expect(
        (await call(t, 'GET', '/api/user/me', { token: again.json<{ token: string }>().token })).statusCode,
      ).toBe(200);
      // An active account stays active.
      expect((await call(t, 'PUT', `/api/user/activate/${user.id}`, { token: admin.token })).statusCode).toBe(
        204,
      );
    });

    it('[API-7] answers 404 for an unknown user, and 403 to anyone but an admin', async () => {
      const unknown = await call(t, 'PUT', '/api/user/activate/999999', { token: admin.token });
      expect(unknown.statusCode).toBe(404);
      expect(errorOf(unknown).code).toBe(errorCodes.notFound);

      const user = await createUser(t);
      const suspended = await createUser(t);
      await call(t, 'DELETE', '/api/user/disable', { token: suspended.token });
      const refused = await call(t, 'PUT', `/api/user/activate/${suspended.id}`, { token: user.token });
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused).code).toBe(errorCodes.forbidden);
      expect((await login(t, suspended.email, suspended.password)).statusCode).toBe(401);
    });
  });

  describe('PUT /api/user/update', () => {
    it('[API-1] answers { token } carrying the new username and email; the change is stored', async () => {
      const user = await createUser(t);
      const username = `renamed_${user.id}`;
      const email = `Renamed.${user.id}@Example.com`;
      const response = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username, email, currentPassword: user.password },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ token: string }>();
      expect(Object.keys(body)).toEqual(['token']);
      expect(tokenClaims(body.token).user).toEqual({
        id: user.id,
        username,
        email: email.toLowerCase(),
        roleTypeId: RoleType.User,
      });
      expect(tokenClaims(body.token).exp).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);

      const me = await call(t, 'GET', '/api/user/me', { token: body.token });
      expect(me.json<User>()).toMatchObject({ id: user.id, username, email: email.toLowerCase() });
      expect((await login(t, email, user.password)).statusCode).toBe(200);
      expect((await login(t, user.email, user.password)).statusCode).toBe(401);
    });

    it("[API-1] keeping one's own username and email is not a conflict", async () => {
      const user = await createUser(t);
      const response = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username: user.username, email: user.email },
      });
      expect(response.statusCode).toBe(200);
    });

    it('[API-1] answers 409 with a detail when the email or the username belongs to another user, and changes nothing', async () => {
      const user = await createUser(t);
      const other = await createUser(t);

      const email = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: {
          username: user.username,
          email: other.email.toUpperCase(),
          currentPassword: user.password,
        },
      });
      expect(email.statusCode).toBe(409);
      expect(errorOf(email)).toMatchObject({
        statusCode: 409,
        name: 'ConflictError',
        code: errorCodes.emailExists,
        details: [{ path: '/email', code: 'unique', message: conflictMessages.email }],
      });

      const username = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username: other.username, email: user.email },
      });
      expect(username.statusCode).toBe(409);
      expect(errorOf(username)).toMatchObject({
        code: errorCodes.usernameExists,
        details: [{ path: '/username', code: 'unique' }],
      });

      const both = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username: other.username, email: other.email, currentPassword: user.password },
      });
      expect(both.statusCode).toBe(409);
      expect(
        errorOf(both)
          .details?.map((d) => d.path)
          .sort(),
      ).toEqual(['/email', '/username']);

      const me = await call(t, 'GET', '/api/user/me', { token: user.token });
      expect(me.json<User>()).toMatchObject({ username: user.username, email: user.email });
    });
  });

  describe('PUT /api/user/update/password', () => {
    it('[API-1] [ADM-4] an admin reset with { userId } answers { password } (>= 8 chars); the new password logs in, the old does not', async () => {
      const user = await createUser(t);
      const response = await call(t, 'PUT', '/api/user/update/password', {
        token: admin.token,
        payload: { userId: user.id },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ password: string }>();
      expect(Object.keys(body)).toEqual(['password']);
      expect(typeof body.password).toBe('string');
      expect(body.password.length).toBeGreaterThanOrEqual(limits.password.min);
      expect(body.password).toMatch(/^[A-Za-z0-9]+$/);

      expect((await login(t, user.email, body.password)).statusCode).toBe(200);
      expect((await login(t, user.email, user.password)).statusCode).toBe(401);

      // Two resets give two different passwords.
      const second = await call(t, 'PUT', '/api/user/update/password', {
        token: admin.token,
        payload: { userId: user.id },
      });
      expect(second.json<{ password: string }>().password).not.toBe(body.password);
    });

    it('[API-1] an admin reset of an unknown user answers 404', async () => {
      const response = await call(t, 'PUT', '/api/user/update/password', {
        token: admin.token,
        payload: { userId: 987654 },
      });
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe(errorCodes.notFound);
    });

    it('[API-1] a user changes their own password with { oldPassword, newPassword }: wrong old password is refused, right one works', async () => {
      const user = await createUser(t);
      const wrong = await call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword: 'not-my-password', newPassword: 'brand-new-pass-1' },
      });
      expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
      expect(wrong.statusCode).toBeLessThan(500);
      expect(errorOf(wrong).message).toEqual(expect.any(String));
      expect((await login(t, user.email, 'brand-new-pass-1')).statusCode).toBe(401);
      expect((await login(t, user.email, user.password)).statusCode).toBe(200);

      const right = await call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword: user.password, newPassword: 'brand-new-pass-1' },
      });
      expect(right.statusCode).toBe(200);
      expect(right.json()).toEqual({ password: null, token: expect.any(String) });
      expect((await login(t, user.email, 'brand-new-pass-1')).statusCode).toBe(200);
      expect((await login(t, user.email, user.password)).statusCode).toBe(401);
      // The old token ends with the change (decision 0013); the answered one goes on.
      expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(401);
      expect(
        (await call(t, 'GET', '/api/user/me', { token: right.json<{ token: string }>().token })).statusCode,
      ).toBe(200);
    });
  });

  describe('GET /api/admin/update', () => {
    it('[API-1] [ADM-7] answers an admin 200 { regeneratedGameIds: [], removedStoredFiles: 0, failedGenerationIds: [], removedHistoryEntries: 0, recomposedSheets: 0 } on a database without games', async () => {
      const response = await call(t, 'GET', '/api/admin/update', { token: admin.token });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        regeneratedGameIds: [],
        removedStoredFiles: 0,
        failedGenerationIds: [],
        removedHistoryEntries: 0,
        recomposedSheets: 0,
      });
    });
  });
});
