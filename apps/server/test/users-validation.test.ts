import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  conflictMessages,
  errorCodes,
  limits,
  validationMessages as m,
  type User,
} from '@reskin/contract';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  signupBody,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

interface Expected {
  path: string;
  message: string;
}

/** A 4xx (never 500) with the whole envelope, code VALIDATION_FAILED and, if given, these details among its details. */
function expectInvalid(response: LightMyRequestResponse, expected: Expected[] = [], label?: string) {
  const where = label ?? response.body;
  expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, where).toBeLessThan(500);
  expect(response.headers['content-type'], where).toMatch(/^application\/json/);
  const body = response.json<{ error: Record<string, unknown> }>();
  expect(Object.keys(body), where).toEqual(['error']);
  const error = errorOf(response);
  expect(error, where).toEqual({
    statusCode: response.statusCode,
    name: expect.stringMatching(/Error$/),
    message: expect.any(String),
    code: errorCodes.validationFailed,
    details: expect.any(Array),
  });
  expect(error.details!.length, where).toBeGreaterThan(0);
  for (const detail of error.details!) {
    expect(detail, where).toEqual({
      path: expect.stringMatching(/^\//),
      code: expect.any(String),
      message: expect.any(String),
    });
  }
  for (const { path, message } of expected) {
    expect(error.details, `${where}: ${path}`).toContainEqual(expect.objectContaining({ path, message }));
  }
}

/** A 4xx (never 500) with the error envelope, whatever its code. */
function expectClientError(response: LightMyRequestResponse, label?: string) {
  const where = label ?? response.body;
  expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, where).toBeLessThan(500);
  expect(errorOf(response), where).toMatchObject({
    statusCode: response.statusCode,
    name: expect.any(String),
    message: expect.any(String),
    code: expect.any(String),
  });
}

describe(`[VAL-8] invalid bodies of the users calls on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    user = await createUser(t);
  });
  afterAll(async () => t.close());

  const signup = (payload: unknown, headers?: Record<string, string>) =>
    call(t, 'POST', '/api/user/signup', { payload, ...(headers ? { headers } : {}) });

  async function userCount(): Promise<number> {
    const response = await call(t, 'POST', '/api/user/list', {
      token: admin.token,
      payload: { fields: ['id'] },
    });
    return response.json<unknown[]>().length;
  }

  describe('POST /api/user/signup', () => {
    const cases: [string, Record<string, unknown>, Expected][] = [
      [
        '[VAL-1] username of 2 characters',
        { username: 'ab' },
        { path: '/username', message: m.usernameLength },
      ],
      [
        '[VAL-1] username of 31 characters',
        { username: 'a'.repeat(31) },
        { path: '/username', message: m.usernameLength },
      ],
      [
        '[VAL-1] username of spaces around 2 characters',
        { username: '   ab   ' },
        { path: '/username', message: m.usernameLength },
      ],
      [
        '[VAL-1] username with a period and !',
        { username: 'bad.name!' },
        { path: '/username', message: m.usernamePattern },
      ],
      [
        '[VAL-1] username with an @',
        { username: 'name@home' },
        { path: '/username', message: m.usernamePattern },
      ],
      [
        '[VAL-1] username with markup',
        { username: '<b>bold</b>' },
        { path: '/username', message: m.usernamePattern },
      ],
      [
        '[VAL-2] firstName of 2 characters',
        { firstName: 'Al' },
        { path: '/firstName', message: m.firstName },
      ],
      [
        '[VAL-2] firstName of spaces only',
        { firstName: '      ' },
        { path: '/firstName', message: m.firstName },
      ],
      ['[VAL-2] lastName of 2 characters', { lastName: 'Li' }, { path: '/lastName', message: m.lastName }],
      [
        '[VAL-2] lastName far too long',
        { lastName: 'L'.repeat(5000) },
        { path: '/lastName', message: m.lastName },
      ],
      ['[VAL-3] email without an @', { email: 'plainaddress' }, { path: '/email', message: m.email }],
      [
        '[VAL-3] email without a domain dot',
        { email: 'someone@localhost' },
        { path: '/email', message: m.email },
      ],
      ['[VAL-3] email with a space', { email: 'some one@example.com' }, { path: '/email', message: m.email }],
      [
        '[VAL-3] email of 101 characters',
        { email: `${'a'.repeat(89)}@example.com` },
        { path: '/email', message: m.email },
      ],
      [
        '[VAL-4] password of 7 characters',
        { password: '1234567' },
        { path: '/password', message: m.password },
      ],
      [
        '[VAL-4] password far too long',
        { password: 'p'.repeat(5000) },
        { path: '/password', message: m.password },
      ],
      [
        '[VAL-5] phone with a dash and too few digits',
        { phone: '555-123' },
        { path: '/phone', message: m.phone },
      ],
      [
        '[VAL-5] phone in the display mask',
        { phone: '(555) 123-4567' },
        { path: '/phone', message: m.phone },
      ],
      ['[VAL-5] phone of 9 digits', { phone: '555123456' }, { path: '/phone', message: m.phone }],
      ['[VAL-5] phone of 11 digits', { phone: '55512345678' }, { path: '/phone', message: m.phone }],
      [
        '[VAL-6] data protection version 2',
        { dataProtectionRegulationVersion: 2 },
        { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
      ],
      [
        '[VAL-6] data protection version 0',
        { dataProtectionRegulationVersion: 0 },
        { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
      ],
      [
        '[VAL-6] data protection version as a string',
        { dataProtectionRegulationVersion: '1' },
        { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
      ],
      // Look-alike and invisible identities, control and bidi characters in names.
      [
        'username with a no-break space',
        { username: 'nb\u00a0sp' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      [
        'username with a newline',
        { username: 'line\nbreak' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      ['username with a tab', { username: 'tab\tbed' }, { path: '/username', message: m.unsafeCharacters }],
      [
        'username with a zero-width space',
        { username: 'zero\u200bwidth' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      [
        'username with a word joiner',
        { username: 'word\u2060joiner' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      [
        'username with a BOM',
        { username: '\ufeffbom_name' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      [
        'username with a right-to-left override',
        { username: 'rtl\u202eride' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      [
        'username with an ideographic space',
        { username: 'wide\u3000space' },
        { path: '/username', message: m.unsafeCharacters },
      ],
      [
        'email with a zero-width space',
        { email: 'zero\u200bwidth@example.com' },
        { path: '/email', message: m.unsafeCharacters },
      ],
      [
        'email with a C1 control',
        { email: 'c1\u0085@example.com' },
        { path: '/email', message: m.unsafeCharacters },
      ],
      [
        'email with a left-to-right mark',
        { email: 'mark\u200e@example.com' },
        { path: '/email', message: m.unsafeCharacters },
      ],
      [
        'firstName with a right-to-left override',
        { firstName: 'Ann\u202egnp.exe' },
        { path: '/firstName', message: m.unsafeCharacters },
      ],
      [
        'firstName with a C1 control',
        { firstName: 'Ann\u009bx' },
        { path: '/firstName', message: m.unsafeCharacters },
      ],
      [
        'lastName with a newline',
        { lastName: 'Smith\nJones' },
        { path: '/lastName', message: m.unsafeCharacters },
      ],
      [
        'lastName with a first-strong isolate',
        { lastName: 'Smith\u2068x\u2069' },
        { path: '/lastName', message: m.unsafeCharacters },
      ],
      [
        '[VAL-6] data protection as the checkbox value true',
        { dataProtectionRegulationVersion: true },
        { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
      ],
    ];
    for (const [title, override, expected] of cases) {
      it(`[VAL-8] ${title} answers 4xx with '${expected.message}'`, async () => {
        const response = await signup(signupBody(override));
        expectInvalid(response, [expected]);
      });
    }

    it('[VAL-8] [VAL-6] a missing dataProtectionRegulationVersion answers the data-protection message', async () => {
      const { dataProtectionRegulationVersion: _omitted, ...body } = signupBody();
      expectInvalid(await signup(body), [
        { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
      ]);
    });

    it('[VAL-8] every missing field answers its own message', async () => {
      const response = await signup({});
      expectInvalid(response, [
        { path: '/username', message: m.usernameLength },
        { path: '/email', message: m.email },
        { path: '/password', message: m.password },
        { path: '/firstName', message: m.firstName },
        { path: '/lastName', message: m.lastName },
        { path: '/phone', message: m.phone },
        { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
      ]);
      expect(errorOf(response).details).toHaveLength(7);
    });

    it("[VAL-8] wrong types (numbers, null, arrays, objects) answer each field's message", async () => {
      for (const wrong of [12345, null, ['abcdef'], { value: 'abcdef' }, true]) {
        const response = await signup({
          username: wrong,
          email: wrong,
          password: wrong,
          firstName: wrong,
          lastName: wrong,
          phone: wrong,
          dataProtectionRegulationVersion: wrong,
        });
        expectInvalid(
          response,
          [
            { path: '/username', message: m.usernameLength },
            { path: '/email', message: m.email },
            { path: '/password', message: m.password },
            { path: '/firstName', message: m.firstName },
            { path: '/lastName', message: m.lastName },
            { path: '/phone', message: m.phone },
            { path: '/dataProtectionRegulationVersion', message: m.dataProtection },
          ],
          JSON.stringify(wrong),
        );
      }
      // A phone number sent as a number is not the 10-digit string.
      expectInvalid(await signup(signupBody({ phone: 5551234567 as unknown as string })), [
        { path: '/phone', message: m.phone },
      ]);
    });

    it('[VAL-8] a body that is not JSON answers the 400 envelope', async () => {
      const response = await signup('{bad', { 'content-type': 'application/json' });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response)).toEqual({
        statusCode: 400,
        name: 'BadRequestError',
        message: expect.any(String),
        code: expect.any(String),
        details: [],
      });
      for (const text of ['{"username": "abc",', '{"a":1}}', "{'single': 'quotes'}", 'undefined']) {
        const other = await signup(text, { 'content-type': 'application/json' });
        expect(other.statusCode, text).toBe(400);
        expect(errorOf(other).statusCode, text).toBe(400);
      }
    });

    it('[VAL-8] an empty body, a JSON null, an array, a string or a number as body answer 4xx with the envelope', async () => {
      for (const text of ['', '   ', 'null', '[]', '[1,2]', '"text"', '42', 'true']) {
        const response = await signup(text, { 'content-type': 'application/json' });
        expectInvalid(response, [], `body ${JSON.stringify(text)}`);
      }
      const noBody = await t.app.inject({ method: 'POST', url: '/api/user/signup' });
      expectInvalid(noBody, [], 'no body at all');
    });

    it('[VAL-8] a body of another media type answers 4xx with the envelope', async () => {
      const text = await signup('username=abc&email=a@b.c', { 'content-type': 'text/plain' });
      expectClientError(text, 'text/plain');
      const form = await signup('username=abc&email=a@b.c', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expectClientError(form, 'form');
    });

    it('[VAL-8] a body over the size limit answers 413 with the envelope', async () => {
      const response = await signup(JSON.stringify(signupBody({ firstName: 'x'.repeat(2 * 1024 * 1024) })), {
        'content-type': 'application/json',
      });
      expect(response.statusCode).toBe(413);
      expectClientError(response);
    });

    it('[VAL-8] no invalid signup created a user', async () => {
      // One valid signup for comparison, then the same data made invalid field by field.
      const before = await userCount();
      const body = signupBody();
      for (const key of Object.keys(body) as (keyof typeof body)[]) {
        expectInvalid(
          await signup({ ...body, [key]: key === 'dataProtectionRegulationVersion' ? 2 : 'x' }),
          [],
          key,
        );
      }
      expect(await userCount()).toBe(before);
      expect((await signup(body)).statusCode).toBe(201);
      expect(await userCount()).toBe(before + 1);
    });
  });

  describe('identities are NFKC-normalised and unique ignoring case', () => {
    it('[VAL-8] Admin beside admin, and a full-width look-alike, answer the duplicate username message', async () => {
      const base = `case_${user.id}_name`;
      const first = await signup(signupBody({ username: base }));
      expect(first.statusCode, first.body).toBe(201);
      const lookAlikes = [
        base.toUpperCase(),
        `Case_${user.id}_Name`,
        // Full-width letters and digits: NFKC makes them the plain ones.
        [...base]
          .map((c) => (/[a-z0-9_]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
          .join(''),
      ];
      for (const [index, username] of lookAlikes.entries()) {
        const response = await signup(
          signupBody({ username, email: `look-alike-${index}-${user.id}@example.com` }),
        );
        expect(response.statusCode, `${username}: ${response.body}`).toBe(409);
        expect(errorOf(response)).toMatchObject({
          code: errorCodes.usernameExists,
          message: conflictMessages.username,
        });
      }
    });

    it("[VAL-8] a renamed account cannot take another user's username in another case either", async () => {
      const response = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: { username: admin.username.toUpperCase(), email: user.email },
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(errorOf(response).code).toBe(errorCodes.usernameExists);
    });

    it('[VAL-8] a full-width email is stored and logs in as its plain form', async () => {
      const body = signupBody();
      const wide = [...body.email]
        .map((c) => (/[a-z0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
        .join('');
      const response = await signup({ ...body, email: wide });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<User>().email).toBe(body.email);
      const again = await signup(signupBody({ email: body.email.toUpperCase() }));
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).code).toBe(errorCodes.emailExists);
      const login = await call(t, 'POST', '/api/user/login', {
        payload: { email: wide, password: body.password },
      });
      expect(login.statusCode, login.body).toBe(200);
    });

    it('[VAL-8] the database refuses two usernames differing only in case (unique index on lower(username))', async () => {
      const taken = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
      const row = {
        username: taken.json<User>().username.toUpperCase(),
        email: `index-${user.id}@example.com`,
        passwordHash: 'x',
        firstName: 'Index',
        lastName: 'Tester',
        phone: '5551234567',
        roleTypeId: RoleType.User,
        activated: 1 as const,
        emailVerified: 0 as const,
        dataProtectionRegulationVersion: 1,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      };
      await expect(t.database.db.insertInto('users').values(row).execute()).rejects.toThrow();
    });
  });

  describe('POST /api/user/login', () => {
    const login = (payload: unknown) => call(t, 'POST', '/api/user/login', { payload });

    it('[VAL-8] [VAL-3] an email of 2 characters answers 4xx on /email', async () => {
      expectInvalid(await login({ email: 'ab', password: 'whatever-123' }), [
        { path: '/email', message: m.loginEmail },
      ]);
    });

    it('[VAL-8] [VAL-3] an email of 101 characters answers 4xx on /email', async () => {
      expectInvalid(await login({ email: `${'a'.repeat(89)}@example.com`, password: 'whatever-123' }), [
        { path: '/email', message: m.loginEmail },
      ]);
    });

    it('[VAL-8] missing, empty or wrongly typed fields answer 4xx with details', async () => {
      expectInvalid(await login({}), [
        { path: '/email', message: m.loginEmail },
        { path: '/password', message: m.loginPassword },
      ]);
      expectInvalid(await login({ email: user.email }), [{ path: '/password', message: m.loginPassword }]);
      expectInvalid(await login({ email: user.email, password: '' }), [
        { path: '/password', message: m.loginPassword },
      ]);
      expectInvalid(await login({ email: 12345, password: 12345678 }), [
        { path: '/email', message: m.loginEmail },
        { path: '/password', message: m.loginPassword },
      ]);
      expectInvalid(await login({ email: [user.email], password: [user.password] }));
      expectInvalid(await login({ email: { $ne: '' }, password: { $ne: '' } }));
      expectInvalid(await login(null));
      expectInvalid(await login([]));
    });

    it('[VAL-8] a login body that is not JSON answers 400', async () => {
      const response = await call(t, 'POST', '/api/user/login', {
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).statusCode).toBe(400);
    });
  });

  describe('PUT /api/user/update', () => {
    const update = (payload: unknown) => call(t, 'PUT', '/api/user/update', { token: user.token, payload });

    it('[VAL-8] a bad username or email answers the signup messages, and nothing changes', async () => {
      const cases: [Record<string, unknown>, Expected][] = [
        [
          { username: 'ab', email: user.email },
          { path: '/username', message: m.usernameLength },
        ],
        [
          { username: 'a'.repeat(31), email: user.email },
          { path: '/username', message: m.usernameLength },
        ],
        [
          { username: 'bad.name!', email: user.email },
          { path: '/username', message: m.usernamePattern },
        ],
        [
          { username: user.username, email: 'plainaddress' },
          { path: '/email', message: m.email },
        ],
        [
          { username: user.username, email: `${'a'.repeat(89)}@example.com` },
          { path: '/email', message: m.email },
        ],
        [{ email: user.email }, { path: '/username', message: m.usernameLength }],
        [{ username: user.username }, { path: '/email', message: m.email }],
        [
          { username: 12345, email: user.email },
          { path: '/username', message: m.usernameLength },
        ],
        [
          { username: user.username, email: null },
          { path: '/email', message: m.email },
        ],
      ];
      for (const [payload, expected] of cases)
        expectInvalid(await update(payload), [expected], JSON.stringify(payload));
      expectInvalid(await update({}), [
        { path: '/username', message: m.usernameLength },
        { path: '/email', message: m.email },
      ]);
      expectInvalid(await update(null));
      const me = await call(t, 'GET', '/api/user/me', { token: user.token });
      expect(me.json<User>()).toMatchObject({ username: user.username, email: user.email });
    });

    it('[VAL-8]a new email with a currentPassword that is no string or too long answers 422 on /currentPassword; odd text is only a wrong password (403)', async () => {
      const email = `new-${user.id}@example.com`;
      expectInvalid(await update({ username: user.username, email, currentPassword: 12345 }), [
        { path: '/currentPassword', message: m.currentPasswordRequired },
      ]);
      expectInvalid(
        await update({
          username: user.username,
          email,
          currentPassword: 'x'.repeat(limits.password.max + 1),
        }),
        [{ path: '/currentPassword', message: m.currentPasswordWrong }],
      );
      // Fewer than the free failures (decision 0011), so none of them waits.
      for (const currentPassword of ['\u0000', '\ud800\u202e', 'ü'.repeat(limits.password.max)]) {
        const response = await update({ username: user.username, email, currentPassword });
        expect(response.statusCode, JSON.stringify(currentPassword)).toBe(403);
        expect(errorOf(response).code).toBe(errorCodes.invalidCredentials);
      }
      const me = await call(t, 'GET', '/api/user/me', { token: user.token });
      expect(me.json<User>()).toMatchObject({ username: user.username, email: user.email });
    });

    it('[VAL-8] an update body that is not JSON answers 400', async () => {
      const response = await call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('PUT /api/user/update/password', () => {
    it('[VAL-8] malformed bodies answer 4xx with the envelope, never 500, and the password stays', async () => {
      const bodies: unknown[] = [
        {},
        null,
        [],
        { userId: 'abc' },
        { userId: -1 },
        { userId: 0 },
        { userId: 1.5 },
        { userId: null },
        { userId: user.id, oldPassword: user.password, newPassword: 'another-pass-1' },
        { oldPassword: user.password },
        { newPassword: 'another-pass-1' },
        { oldPassword: '', newPassword: 'another-pass-1' },
        { oldPassword: user.password, newPassword: 'short' },
        { oldPassword: user.password, newPassword: 12345678 },
        { oldPassword: user.password, newPassword: 'another-pass-1', extra: true },
      ];
      for (const payload of bodies) {
        for (const token of [user.token, admin.token]) {
          const response = await call(t, 'PUT', '/api/user/update/password', { token, payload });
          expectInvalid(response, [], JSON.stringify(payload));
        }
      }
      const notJson = await call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      });
      expect(notJson.statusCode).toBe(400);
      const login = await call(t, 'POST', '/api/user/login', {
        payload: { email: user.email, password: user.password },
      });
      expect(login.statusCode).toBe(200);
    });

    it('[VAL-8] [VAL-4] a new password of 7 characters is refused with the password message', async () => {
      const response = await call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword: user.password, newPassword: '1234567' },
      });
      expectInvalid(response);
      expect(JSON.stringify(errorOf(response).details)).toContain(m.password);
    });
  });

  describe('POST /api/user/list', () => {
    it('[VAL-8] a limit over 100, negative skip or offset, or an unknown top-level key answers 4xx', async () => {
      const bodies: unknown[] = [
        { limit: 1000 },
        { limit: 101 },
        { limit: -1 },
        { limit: 1.5 },
        { limit: '10' },
        { skip: -1 },
        { offset: -1 },
        { skip: 'abc' },
        { nope: true },
        { where: {}, password: 'x' },
        { fields: 'id' },
        { fields: [1, 2] },
        { order: 5 },
        { order: [5] },
        { where: 'id = 1' },
        { where: ['id'] },
        { include: 'user' },
        null,
        [],
      ];
      for (const payload of bodies) {
        const response = await call(t, 'POST', '/api/user/list', { token: admin.token, payload });
        expectClientError(response, JSON.stringify(payload));
      }
      const limit = await call(t, 'POST', '/api/user/list', { token: admin.token, payload: { limit: 1000 } });
      expectInvalid(limit, [{ path: '/limit', message: expect.any(String) as unknown as string }]);
    });
  });

  describe('path parameters', () => {
    it('[VAL-8] ids that are not positive integers answer 4xx VALIDATION_FAILED', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '1e3x', '9007199254740993', '%20']) {
        for (const [method, url] of [
          ['GET', `/api/user/detail/${id}`],
          ['DELETE', `/api/user/delete/${id}`],
          ['PUT', `/api/user/role/${id}/${RoleType.User}`],
        ] as const) {
          const response = await call(t, method, url, { token: admin.token });
          expectInvalid(response, [], `${method} ${url}`);
        }
      }
      expectInvalid(await call(t, 'PUT', `/api/user/role/${user.id}/abc`, { token: admin.token }));
    });

    it('[VAL-8] ids beyond what the database holds answer 4xx or 404, never 500', async () => {
      for (const id of ['2147483648', '99999999999', '9007199254740991']) {
        for (const [method, url] of [
          ['GET', `/api/user/detail/${id}`],
          ['DELETE', `/api/user/delete/${id}`],
          ['PUT', `/api/user/role/${id}/${RoleType.User}`],
        ] as const) {
          const response = await call(t, method, url, { token: admin.token });
          expectClientError(response, `${method} ${url}`);
        }
        const reset = await call(t, 'PUT', '/api/user/update/password', {
          token: admin.token,
          payload: { userId: Number(id) },
        });
        expectClientError(reset, `reset ${id}`);
      }
    });
  });
});
