import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RoleType,
  errorCodes,
  limits,
  userSearchFilter,
  type SearchFilter,
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

/**
 * The users this file searches, signed up in this order. Usernames use lower-case letters only (plus the
 * mixed-case ones for `like`), so that ordering is the same under SQLite's and PostgreSQL's collations.
 */
const names = ['abc', 'xabcx', 'ABCdef', 'sortalpha', 'sortbeta', 'sortgamma', 'sortdelta', 'zzz'];
const teamSize = 13;

describe(`[API-6] the search query of POST /user/list on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
    for (const username of [
      ...names,
      ...Array.from({ length: teamSize }, (_, i) => `team${String.fromCharCode(97 + i)}`),
    ]) {
      const response = await call(t, 'POST', '/api/user/signup', { payload: signupBody({ username }) });
      if (response.statusCode !== 201) throw new Error(response.body);
      ids[username] = response.json<User>().id;
    }
    // One demo user for the role filters.
    await call(t, 'PUT', `/api/user/role/${ids.zzz}/${RoleType.Demo}`, { token: admin.token });
  });
  afterAll(async () => t.close());

  async function search(filter: unknown): Promise<Partial<User>[]> {
    const response = await call(t, 'POST', '/api/user/list', { token: admin.token, payload: filter });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Partial<User>[]>();
  }

  const usernames = (users: Partial<User>[]) => users.map((u) => u.username);
  const idsOf = (users: Partial<User>[]) => users.map((u) => u.id);

  function expectInvalidFilter(response: LightMyRequestResponse, label: string) {
    expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
    expect(errorOf(response), label).toMatchObject({
      statusCode: 400,
      name: 'BadRequestError',
      code: errorCodes.invalidFilter,
      message: expect.any(String),
    });
    expect(errorOf(response).details?.[0], label).toEqual({
      path: expect.any(String),
      code: expect.any(String),
      message: expect.any(String),
    });
  }

  describe('where', () => {
    it('[API-6] like is case-insensitive: %ABC% finds abc, xabcx and ABCdef', async () => {
      const found = await search({ where: { username: { like: '%ABC%' } }, order: 'id ASC' });
      expect(usernames(found)).toEqual(['abc', 'xabcx', 'ABCdef']);
      expect(usernames(await search({ where: { username: { like: 'abc%' } }, order: 'id ASC' }))).toEqual([
        'abc',
        'ABCdef',
      ]);
      expect(usernames(await search({ where: { username: { ilike: '%ABCDEF' } } }))).toEqual(['ABCdef']);
    });

    it('[API-6] like supports _ for one character, nlike negates', async () => {
      expect(usernames(await search({ where: { username: { like: 'sort_eta' } } }))).toEqual(['sortbeta']);
      const notTeam = await search({ where: { username: { nlike: 'team%' } }, fields: ['username'] });
      expect(usernames(notTeam)).not.toContain('teama');
      expect(usernames(notTeam)).toContain('abc');
    });

    it('[API-6] like on email finds the users by domain part, in any case', async () => {
      const found = await search({ where: { email: { like: '%SORTALPHA@EXAMPLE.COM' } } });
      expect(usernames(found)).toEqual(['sortalpha']);
    });

    it('[API-6] eq with a plain value and with { eq }', async () => {
      expect(usernames(await search({ where: { username: 'sortbeta' } }))).toEqual(['sortbeta']);
      expect(usernames(await search({ where: { username: { eq: 'sortbeta' } } }))).toEqual(['sortbeta']);
      expect(usernames(await search({ where: { id: ids.abc } }))).toEqual(['abc']);
      expect(usernames(await search({ where: { id: String(ids.abc) } }))).toEqual(['abc']);
      expect(await search({ where: { username: 'nobody-at-all' } })).toEqual([]);
    });

    it('[API-6] neq leaves out the value', async () => {
      const found = await search({ where: { username: { neq: 'abc' } }, fields: ['username'] });
      expect(usernames(found)).not.toContain('abc');
      expect(found).toHaveLength(names.length + teamSize); // everyone else, the admin included
    });

    it('[API-6] gt, gte, lt and lte on id', async () => {
      const a = ids.sortalpha!;
      const b = ids.sortbeta!;
      const c = ids.sortgamma!;
      const inSort = { username: { like: 'sort%' } };
      expect(
        usernames(await search({ where: { and: [inSort, { id: { gt: b } }] }, order: 'id ASC' })),
      ).toEqual(['sortgamma', 'sortdelta']);
      expect(
        usernames(await search({ where: { and: [inSort, { id: { gte: b } }] }, order: 'id ASC' })),
      ).toEqual(['sortbeta', 'sortgamma', 'sortdelta']);
      expect(
        usernames(await search({ where: { and: [inSort, { id: { lt: b } }] }, order: 'id ASC' })),
      ).toEqual(['sortalpha']);
      expect(
        usernames(await search({ where: { and: [inSort, { id: { lte: b } }] }, order: 'id ASC' })),
      ).toEqual(['sortalpha', 'sortbeta']);
      // Two operators on one column are combined with and.
      expect(usernames(await search({ where: { id: { gt: a, lt: c } } }))).toEqual(['sortbeta']);
    });

    it('[API-6] inq and nin', async () => {
      const found = await search({ where: { id: { inq: [ids.abc, ids.zzz, 987654] } }, order: 'id ASC' });
      expect(usernames(found)).toEqual(['abc', 'zzz']);
      expect(
        usernames(
          await search({ where: { username: { inq: ['sortbeta', 'sortalpha'] } }, order: 'username ASC' }),
        ),
      ).toEqual(['sortalpha', 'sortbeta']);
      const rest = await search({
        where: { and: [{ username: { like: 'sort%' } }, { username: { nin: ['sortalpha', 'sortgamma'] } }] },
        order: 'id ASC',
      });
      expect(usernames(rest)).toEqual(['sortbeta', 'sortdelta']);
    });

    it('[API-6] between is inclusive on both ends', async () => {
      const found = await search({
        where: { id: { between: [ids.sortalpha, ids.sortgamma] } },
        order: 'id ASC',
      });
      expect(usernames(found)).toEqual(['sortalpha', 'sortbeta', 'sortgamma']);
    });

    it('[API-6] and / or nest', async () => {
      const found = await search({
        where: {
          or: [
            { username: 'abc' },
            { and: [{ username: { like: 'sort%' } }, { or: [{ id: ids.sortbeta }, { id: ids.sortdelta }] }] },
          ],
        },
        order: 'id ASC',
      });
      expect(usernames(found)).toEqual(['abc', 'sortbeta', 'sortdelta']);
      // Top-level keys are combined with and.
      expect(usernames(await search({ where: { username: { like: 'sort%' }, id: ids.sortgamma } }))).toEqual([
        'sortgamma',
      ]);
    });

    it('[API-6] filters on role and on the active flag', async () => {
      expect(usernames(await search({ where: { roleTypeId: RoleType.Demo } }))).toEqual(['zzz']);
      expect(idsOf(await search({ where: { roleTypeId: RoleType.Admin } }))).toEqual([admin.id]);
      expect(await search({ where: { activated: false } })).toEqual([]);
      expect((await search({ where: { activated: true } })).length).toBe(names.length + teamSize + 1);
    });

    it('[API-6] a where value with SQL in it is only a value', async () => {
      expect(await search({ where: { username: "abc' or '1'='1" } })).toEqual([]);
      expect(await search({ where: { username: { like: "%'; drop table users; --%" } } })).toEqual([]);
      expect((await search({ fields: ['id'] })).length).toBe(names.length + teamSize + 1);
    });
  });

  describe('fields', () => {
    it('[API-6] fields as an array gives only those keys', async () => {
      const found = await search({ where: { username: 'abc' }, fields: ['id', 'username'] });
      expect(found).toEqual([{ id: ids.abc, username: 'abc' }]);
    });

    it('[API-6] fields as an object gives only the keys set to true', async () => {
      const found = await search({
        where: { username: 'abc' },
        fields: { id: true, email: true, roleTypeId: true },
      });
      expect(found).toEqual([{ id: ids.abc, email: 'abc@example.com', roleTypeId: RoleType.User }]);
    });

    it('[API-6] fields as an object with only false keys gives every other field', async () => {
      const [found] = await search({ where: { username: 'abc' }, fields: { email: false, phone: false } });
      expect(found).toMatchObject({ id: ids.abc, username: 'abc' });
      expect(found).not.toHaveProperty('email');
      expect(found).not.toHaveProperty('phone');
    });
  });

  describe('order, limit, skip, offset', () => {
    const sortWhere = { username: { like: 'sort%' } };

    it('[API-6] order "username ASC" and "username DESC"', async () => {
      expect(usernames(await search({ where: sortWhere, order: 'username ASC' }))).toEqual([
        'sortalpha',
        'sortbeta',
        'sortdelta',
        'sortgamma',
      ]);
      expect(usernames(await search({ where: sortWhere, order: 'username DESC' }))).toEqual([
        'sortgamma',
        'sortdelta',
        'sortbeta',
        'sortalpha',
      ]);
      // Without a direction, ascending; the keyword in any case.
      expect(usernames(await search({ where: sortWhere, order: 'username' }))).toEqual([
        'sortalpha',
        'sortbeta',
        'sortdelta',
        'sortgamma',
      ]);
      expect(usernames(await search({ where: sortWhere, order: 'username desc' }))).toEqual([
        'sortgamma',
        'sortdelta',
        'sortbeta',
        'sortalpha',
      ]);
    });

    it('[API-6] order "id DESC"', async () => {
      const found = await search({ order: 'id DESC', fields: ['id'] });
      const all = idsOf(found) as number[];
      expect(all).toEqual([...all].sort((x, y) => y - x));
      expect(all[0]).toBe(Math.max(...Object.values(ids)));
    });

    it('[API-6] order as an array: role first, then id', async () => {
      const found = await search({
        where: { id: { inq: [ids.abc, ids.zzz, ids.sortalpha, admin.id] } },
        order: ['roleTypeId DESC', 'id ASC'],
      });
      expect(idsOf(found)).toEqual([ids.zzz, ids.abc, ids.sortalpha, admin.id]);
    });

    it('[API-6] limit, skip and offset page through the results', async () => {
      const all = idsOf(
        await search({ where: { username: { like: 'team%' } }, order: 'id ASC', fields: ['id'] }),
      );
      expect(all).toHaveLength(teamSize);
      expect(
        idsOf(await search({ where: { username: { like: 'team%' } }, order: 'id ASC', limit: 5 })),
      ).toEqual(all.slice(0, 5));
      expect(
        idsOf(await search({ where: { username: { like: 'team%' } }, order: 'id ASC', limit: 5, skip: 5 })),
      ).toEqual(all.slice(5, 10));
      expect(
        idsOf(
          await search({ where: { username: { like: 'team%' } }, order: 'id ASC', limit: 5, offset: 10 }),
        ),
      ).toEqual(all.slice(10));
      expect(await search({ where: { username: { like: 'team%' } }, order: 'id ASC', skip: 100 })).toEqual(
        [],
      );
      expect(await search({ where: { username: { like: 'team%' } }, limit: 0 })).toEqual([]);
    });

    it('[API-6] without a limit the list answers at most the default page', async () => {
      const found = await search({});
      expect(found.length).toBe(names.length + teamSize + 1);
      expect(found.length).toBeLessThanOrEqual(limits.filterLimitDefault);
    });
  });

  it('[API-6] [AUG-2] the typeahead query (userSearchFilter) answers at most 10 users with only id and username', async () => {
    const filter: SearchFilter = userSearchFilter('TEAM');
    const found = await search(filter);
    expect(found).toHaveLength(limits.searchPageSize);
    for (const user of found) {
      expect(Object.keys(user).sort()).toEqual(['id', 'username']);
      expect(user.username).toMatch(/^team[a-z]$/);
    }
    expect(await search(userSearchFilter('sortb'))).toEqual([{ id: ids.sortbeta, username: 'sortbeta' }]);
    expect(await search(userSearchFilter('no-such-user'))).toEqual([]);
  });

  describe('what the query cannot reach', () => {
    const forbidden: [string, unknown][] = [
      ['where on password', { where: { password: 'x' } }],
      ['where on passwordHash', { where: { passwordHash: { like: '%' } } }],
      ['where on an injected column', { where: { 'users.id; drop table users': 1 } }],
      ['where on a qualified column', { where: { 'users.passwordHash': { like: '%' } } }],
      ['where on a relation', { where: { game: { name: 'x' } } }],
      ['where on a relation path', { where: { 'user.username': 'x' } }],
      ['where on a column of another table', { where: { name: 'x' } }],
      [
        'where with dataProtectionRegulationVersion (not searchable)',
        { where: { dataProtectionRegulationVersion: 1 } },
      ],
      ['where in an or', { where: { or: [{ username: 'abc' }, { passwordHash: { like: '%' } }] } }],
      ['where in a nested and', { where: { and: [{ or: [{ and: [{ password: 'x' }] }] }] } }],
      ['fields with password', { fields: ['id', 'password'] }],
      ['fields with passwordHash', { fields: { passwordHash: true } }],
      ['fields with an injected column', { fields: ['users.id; drop table users'] }],
      ['fields with a relation', { fields: ['id', 'userGames'] }],
      ['fields with * ', { fields: ['*'] }],
      ['order by passwordHash', { order: 'passwordHash ASC' }],
      ['order by an injected column', { order: 'users.id; drop table users' }],
      ['order with an injected direction', { order: 'id; drop table users' }],
      ['order by an expression', { order: 'length(passwordHash) DESC' }],
      ['order with two terms in one string', { order: 'id ASC, username DESC' }],
      ['order array with a forbidden term', { order: ['id ASC', 'passwordHash DESC'] }],
      ['order with a bad direction', { order: 'id SIDEWAYS' }],
      ['an unknown operator', { where: { username: { regexp: '^a' } } }],
      ['an unknown operator on id', { where: { id: { $gt: 1 } } }],
      ['an empty condition', { where: { username: {} } }],
      ['inq without a list', { where: { id: { inq: 5 } } }],
      ['inq with an empty list', { where: { id: { inq: [] } } }],
      ['between with one value', { where: { id: { between: [1] } } }],
      ['between with three values', { where: { id: { between: [1, 2, 3] } } }],
      ['like with a number', { where: { username: { like: 5 } } }],
      ['a text where a number is needed', { where: { id: 'abc' } }],
      ['an object value', { where: { username: { eq: { a: 1 } } } }],
      ['a list as plain value', { where: { id: [1, 2] } }],
      ['a boolean column with a text', { where: { activated: 'yes' } }],
      ['or without a list', { where: { or: { username: 'abc' } } }],
      ['and with an empty list', { where: { and: [] } }],
      ['include on users (string)', { include: ['user'] }],
      ['include on users (object)', { include: [{ relation: 'game' }] }],
      ['include of passwords', { include: [{ relation: 'passwordHash' }] }],
    ];

    for (const [label, filter] of forbidden) {
      it(`[API-6] ${label} answers 400 INVALID_FILTER`, async () => {
        const response = await call(t, 'POST', '/api/user/list', { token: admin.token, payload: filter });
        expectInvalidFilter(response, label);
        expect(response.body).not.toContain('$argon2');
      });
    }

    it('[API-6] the users table is still there and complete afterwards', async () => {
      const found = await search({ fields: ['id', 'username'] });
      expect(found).toHaveLength(names.length + teamSize + 1);
      expect(usernames(found)).toEqual(expect.arrayContaining([...names, 'teama']));
      // And a login still works.
      const login = await call(t, 'POST', '/api/user/login', {
        payload: { email: admin.email, password: admin.password },
      });
      expect(login.statusCode).toBe(200);
    });
  });

  describe('values the database cannot take', () => {
    const strange: [string, unknown][] = [
      ['like on a number column', { where: { id: { like: '%1%' } } }],
      ['like on a date column', { where: { createdAt: { like: '%20%' } } }],
      ['like on a boolean column', { where: { activated: { like: '%1%' } } }],
      ['a fractional id', { where: { id: 1.5 } }],
      ['an id beyond 32 bits', { where: { id: { gt: 2147483648 } } }],
      ['an id of 1e20', { where: { id: { lt: 1e20 } } }],
      ['a date that is no date', { where: { createdAt: { gt: 'yesterday-ish' } } }],
      ['a number as date', { where: { createdAt: { gt: 5 } } }],
    ];
    for (const [label, filter] of strange) {
      it(`[API-6] [VAL-8] ${label} answers 400 INVALID_FILTER on both databases, never 500`, async () => {
        const response = await call(t, 'POST', '/api/user/list', { token: admin.token, payload: filter });
        expect(response.statusCode, response.body).toBe(400);
        expect(errorOf(response).code).toBe(errorCodes.invalidFilter);
      });
    }

    const builtIns = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];
    for (const name of builtIns) {
      it(`[API-6] [VAL-8] the built-in name "${name}" as a column, operator or order answers 400 INVALID_FILTER`, async () => {
        // Raw JSON: an object literal with __proto__ would set the prototype instead of a key.
        const filters = [
          `{"where":{"${name}":1}}`,
          `{"where":{"username":{"${name}":"a"}}}`,
          `{"where":{"id":{"${name}":1}}}`,
          `{"fields":["${name}"]}`,
          `{"fields":{"${name}":true}}`,
          `{"order":"${name} ASC"}`,
        ];
        for (const filter of filters) {
          const response = await call(t, 'POST', '/api/user/list', {
            token: admin.token,
            payload: filter,
            headers: { 'content-type': 'application/json' },
          });
          expect(response.statusCode, `${filter}: ${response.body}`).toBe(400);
          expect(errorOf(response).statusCode).toBe(400);
        }
      });
    }

    const { listMax, conditionsMax, patternMax } = limits.filterWhere;
    const huge: [string, unknown][] = [
      ['a 50,000-id inq', { where: { id: { inq: Array.from({ length: 50_000 }, (_, i) => i + 1) } } }],
      [
        `an inq of ${listMax + 1} ids`,
        { where: { id: { inq: Array.from({ length: listMax + 1 }, (_, i) => i + 1) } } },
      ],
      [
        `a nin of ${listMax + 1} ids`,
        { where: { id: { nin: Array.from({ length: listMax + 1 }, (_, i) => i + 1) } } },
      ],
      ['a 5,000-item and', { where: { and: Array.from({ length: 5000 }, (_, i) => ({ id: { neq: i } })) } }],
      [
        `an or of ${conditionsMax + 1} conditions`,
        { where: { or: Array.from({ length: conditionsMax + 1 }, (_, i) => ({ id: i })) } },
      ],
      [
        `${conditionsMax + 1} conditions spread over nested ands`,
        {
          where: {
            and: Array.from({ length: 3 }, () => ({
              and: Array.from({ length: 70 }, (_, i) => ({ id: { neq: i } })),
            })),
          },
        },
      ],
      ['a 100 KB like pattern', { where: { username: { like: `%${'a'.repeat(100_000)}%` } } }],
      [
        `a like pattern of ${patternMax + 1} characters`,
        { where: { username: { like: 'a'.repeat(patternMax + 1) } } },
      ],
    ];
    for (const [label, filter] of huge) {
      it(`[API-6] [VAL-8] ${label} answers 400 INVALID_FILTER on both databases`, async () => {
        const response = await call(t, 'POST', '/api/user/list', { token: admin.token, payload: filter });
        expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
        expect(errorOf(response).code).toBe(errorCodes.invalidFilter);
      });
    }

    it('[API-6] filters at the limits still work: an inq of the most ids, a pattern of the most characters', async () => {
      const ids = Array.from({ length: listMax }, (_, i) => i + 1);
      const found = await search({ where: { id: { inq: ids } }, fields: ['id'] });
      expect(found.length).toBeGreaterThan(0);
      expect(await search({ where: { username: { like: 'a'.repeat(patternMax) } } })).toEqual([]);
      const conditions = Array.from({ length: conditionsMax }, () => ({ id: { gt: 0 } }));
      expect((await search({ where: { and: conditions }, fields: ['id'] })).length).toBeGreaterThan(0);
    });

    it('[API-6] a date comparison with an ISO date works on both databases', async () => {
      const everyone = names.length + teamSize + 1;
      expect(
        await search({ where: { createdAt: { gt: '2000-01-01T00:00:00.000Z' } }, fields: ['id'] }),
      ).toHaveLength(everyone);
      expect(await search({ where: { createdAt: { gt: '2000-01-01' } }, fields: ['id'] })).toHaveLength(
        everyone,
      );
      expect(await search({ where: { createdAt: { lt: '2000-01-01' } } })).toEqual([]);
      expect(
        await search({ where: { updatedAt: { between: ['2000-01-01', '2999-12-31'] } }, fields: ['id'] }),
      ).toHaveLength(everyone);
    });
  });
});
