import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, validationMessages } from '@reskin/contract';
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

// New passwords on the list of the most common and breached passwords (@zxcvbn-ts/language-common),
// or one character repeated, are refused with one clear message on register, Add User and a change of one's own;
// SPEC's minimum of 8 stays, and seeded accounts keep logging in.

/** Common passwords of 8 characters or more, as people type them (any case, surrounding spaces), and repeats. */
const commonPasswords = [
  '12345678',
  'password',
  '        ',
  'Password1',
  ' 12345678 ',
  'qwertyuiop',
  'iloveyou',
  'Sunshine',
  'aaaaaaaa',
  'trustno1',
];

function expectCommon(
  response: LightMyRequestResponse,
  path: '/password' | '/newPassword',
  label: string,
): void {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(422);
  expect(errorOf(response), label).toEqual({
    statusCode: 422,
    name: 'UnprocessableEntityError',
    message: expect.any(String),
    code: errorCodes.validationFailed,
    details: [{ path, code: 'common_password', message: validationMessages.commonPassword }],
  });
}

describe(`common passwords on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t?.close());

  async function userCount(): Promise<number> {
    const row = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  it('register refuses a common password with the message on /password, and creates no user', async () => {
    const before = await userCount();
    for (const password of commonPasswords) {
      expectCommon(
        await call(t, 'POST', '/api/user/signup', { payload: signupBody({ password }) }),
        '/password',
        JSON.stringify(password),
      );
    }
    expect(await userCount()).toBe(before);
  });

  it("an admin's Add User refuses a common password the same way", async () => {
    const before = await userCount();
    for (const password of commonPasswords) {
      const response = await call(t, 'POST', '/api/user/create', {
        token: admin.token,
        payload: signupBody({ password }),
      });
      expectCommon(response, '/password', JSON.stringify(password));
    }
    expect(await userCount()).toBe(before);
  });

  it('a change of your own password refuses a common new one, and the current password keeps working', async () => {
    const user = await createUser(t);
    for (const newPassword of commonPasswords) {
      const response = await call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword: user.password, newPassword },
      });
      expectCommon(response, '/newPassword', JSON.stringify(newPassword));
    }
    expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(200);
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);
  });

  it('SPEC minimum of 8 stays first, and uncommon passwords of 8 or more characters are accepted', async () => {
    const short = await call(t, 'POST', '/api/user/signup', { payload: signupBody({ password: '1234567' }) });
    expect(short.statusCode).toBe(422);
    expect(errorOf(short).details).toContainEqual(
      expect.objectContaining({ path: '/password', message: validationMessages.password }),
    );
    for (const password of ['kq7-vb2x', 'Passw0rd-test', 'correct horse battery staple', 'aaaaaaab']) {
      const body = signupBody({ password });
      const response = await call(t, 'POST', '/api/user/signup', { payload: body });
      expect(response.statusCode, `${password}: ${response.body}`).toBe(201);
      expect((await login(t, body.email, password)).statusCode).toBe(200);
    }
    const user = await createUser(t);
    const changed = await call(t, 'PUT', '/api/user/update/password', {
      token: user.token,
      payload: { oldPassword: user.password, newPassword: 'a-less-common-one-23' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it("an admin's reset sets a generated password, which is never refused", async () => {
    const user = await createUser(t);
    const reset = await call(t, 'PUT', '/api/user/update/password', {
      token: admin.token,
      payload: { userId: user.id },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const { password } = reset.json<{ password: string }>();
    expect((await login(t, user.email, password)).statusCode).toBe(200);
  });
});

describe(`seeded accounts bypass the common-password check on ${testDb}`, () => {
  let t: TestApp;
  const admin = { email: 'first-admin@example.com', password: 'password1' };

  beforeAll(async () => {
    // The demo logins of the README and an ADMIN_PASSWORD that is on the list: seeding writes them directly.
    t = await createTestApp({ seedDemo: true, admin });
  });
  afterAll(async () => t?.close());

  it('the demo accounts and ADMIN_EMAIL/ADMIN_PASSWORD log in, even with a common password', async () => {
    for (const [email, password] of [
      ['admin@example.com', 'admin1234'],
      ['user@example.com', 'user12345'],
      ['demo@example.com', 'demo12345'],
      [admin.email, admin.password],
    ] as const) {
      expect((await login(t, email, password)).statusCode, email).toBe(200);
    }
  });
});
