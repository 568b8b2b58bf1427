import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { RoleType, limits, validationMessages } from '@reskin/contract';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  filesForm,
  storedKeys,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';

/**
 * The bad-input test, generated from the OpenAPI document: every operation it lists gets
 * malformed and hostile path parameters, query strings and bodies (wrong types, built-in names, huge filters,
 * control and bidi characters, very long strings), as an admin and as an anonymous caller. No answer may be a
 * 5xx, and every 4xx must be the error envelope with its own status.
 */

interface SchemaObject {
  type?: string;
  properties?: Record<string, SchemaObject>;
  anyOf?: SchemaObject[];
}
interface Operation {
  parameters?: { in: 'path' | 'query' | 'header'; name: string; schema?: SchemaObject }[];
  requestBody?: { content: Record<string, { schema?: SchemaObject }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/** Hostile texts: built-in names, control (C0, C1), invisible and bidi-override characters, very long ones. */
const hostileStrings = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'a\u0000b',
  'line\nbreak',
  'c1\u0085\u009b',
  'zero\u200bwidth',
  'nb\u00a0sp',
  'bom\ufeff',
  'rtl\u202eoverride',
  'isolate\u2066x\u2069',
  '../../etc/passwd',
  "' or 1=1 --",
  '%00',
  '\ud800',
  'x'.repeat(100_000),
];

/** Wrong types for any field. */
const wrongTypes: unknown[] = [
  null,
  1.5,
  -1,
  2 ** 53,
  1e308,
  true,
  [],
  [1, 2],
  {},
  { constructor: { prototype: { x: 1 } } },
];

/**
 * Ids written loosely, already URL-encoded: before, a coercing schema read them as 1, 16, 1000, 2, 1 and
 * 1 (or a 32-bit overflow); now each is no id at all.
 */
const looseIds = ['%201', '0x10', '1e3', '0002', '-1', '+1', '2147483648'];

/** Path parameter values, already URL-encoded. */
const hostileParams = [
  ...looseIds,
  '0',
  '1.5',
  '99999999999999999999',
  '1%20',
  '1_000',
  '%D9%A1',
  'constructor',
  '__proto__',
  'toString',
  'NaN',
  '%00',
  '%0A',
  '%E2%80%AE',
  '%C2%85',
  '%FF',
  '..%2F..%2Fetc',
  'x'.repeat(3000),
];

/** Query strings added to every operation. */
const hostileQueries = [
  '?__proto__=1&constructor=x',
  '?filter=%7B%22where%22%3A%7B%22constructor%22%3A1%7D%7D',
  '?ticket=&ticket=x',
  '?ticket=%00%E2%80%AE',
  `?ticket=${'t'.repeat(5000)}`,
  '?limit=-1&skip=1e400',
];

const { listMax, conditionsMax, patternMax } = limits.filterWhere;

/** Filters for the operations whose body has a `where` (the search queries). */
const hostileFilters: unknown[] = [
  { where: { constructor: 1 } },
  { where: { toString: { like: '%' } } },
  { where: { id: { constructor: 1 } } },
  { where: { id: { toString: 1 } } },
  { where: { hasOwnProperty: { inq: [1] } } },
  { fields: ['constructor'] },
  { fields: { toString: true } },
  { order: 'constructor DESC' },
  { order: ['valueOf'] },
  { include: ['constructor'] },
  { include: [{ relation: '__proto__' }] },
  { where: { id: { inq: Array.from({ length: 50_000 }, (_, i) => i) } } },
  { where: { id: { nin: Array.from({ length: listMax + 1 }, (_, i) => i) } } },
  { where: { and: Array.from({ length: 5000 }, (_, i) => ({ id: i })) } },
  { where: { or: Array.from({ length: conditionsMax + 1 }, (_, i) => ({ id: i })) } },
  { where: { id: { like: '%'.repeat(patternMax + 1) } } },
  { where: { name: { like: 'a'.repeat(100_000) } } },
  { where: { username: { like: 'a'.repeat(100_000) } } },
  { where: { path: { ilike: `%${'_'.repeat(patternMax + 1)}` } } },
  { where: { a: { b: { c: { d: 1 } } } } },
  { where: Array.from({ length: 10 }).reduce<object>((inner) => ({ and: [inner] }), { id: 1 }) },
  { where: { id: '\u0000' } },
  { where: { createdAt: { gt: 'constructor' } } },
  { where: { id: { between: [2 ** 53, -(2 ** 53)] } } },
  { limit: 1e9 },
  { skip: 2 ** 53 },
  { offset: -1 },
];

/** Bodies sent as raw JSON text (so a __proto__ key stays a key), or not JSON at all. */
const rawBodies = [
  'not json',
  '{"a":',
  '[]',
  'null',
  '123',
  '"text"',
  '{}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"where":{"__proto__":1}}',
  `{"x":"${'y'.repeat(2 * 1024 * 1024)}"}`,
];

interface BadRequest {
  method: NonNullable<InjectOptions['method']>;
  url: string;
  payload?: string;
  contentType?: string;
}

/** A plausible value of a schema's type, so one hostile field is checked with the others well-formed. */
function plausible(schema: SchemaObject | undefined): unknown {
  const type = schema?.type ?? schema?.anyOf?.[0]?.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'abc';
}

/** Every hostile request for one operation. */
function requestsFor(method: string, path: string, operation: Operation): BadRequest[] {
  const verb = method.toUpperCase() as BadRequest['method'];
  const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const withParams = (values: Record<string, string>) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? '1');
  const requests: BadRequest[] = [];

  for (const name of pathParams) {
    for (const value of hostileParams) requests.push({ method: verb, url: withParams({ [name]: value }) });
  }
  for (const query of hostileQueries) requests.push({ method: verb, url: `${withParams({})}${query}` });

  const url = withParams({});
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  if (json || verb !== 'GET') {
    for (const body of rawBodies)
      requests.push({ method: verb, url, payload: body, contentType: 'application/json' });
  }
  if (json?.properties) {
    const base = Object.fromEntries(
      Object.entries(json.properties).map(([name, schema]) => [name, plausible(schema)]),
    );
    for (const name of Object.keys(json.properties)) {
      for (const value of [...hostileStrings, ...wrongTypes]) {
        requests.push({
          method: verb,
          url,
          payload: JSON.stringify({ ...base, [name]: value }),
          contentType: 'application/json',
        });
      }
    }
    if ('where' in json.properties) {
      for (const filter of hostileFilters) {
        requests.push({
          method: verb,
          url,
          payload: JSON.stringify(filter),
          contentType: 'application/json',
        });
      }
    }
  }
  if (content['multipart/form-data']) {
    const garbage = '--x\r\nContent-Disposition: form-data; name="file"; filename="../\u202e.png"\r\n\r\nabc';
    requests.push({ method: verb, url, payload: garbage, contentType: 'multipart/form-data; boundary=x' });
    requests.push({ method: verb, url, payload: 'abc', contentType: 'multipart/form-data' });
    requests.push({ method: verb, url, payload: '{}', contentType: 'multipart/form-data; boundary=' });
  }
  return requests;
}

/** Why an answer breaks the rule (a 5xx, or a 4xx without the envelope of its own status), or undefined. */
function problem(response: LightMyRequestResponse): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  if (response.statusCode < 400) return undefined;
  let body: { error?: { statusCode?: unknown; name?: unknown; message?: unknown } };
  try {
    body = response.json();
  } catch {
    return `answered ${response.statusCode} without a JSON envelope: ${response.body.slice(0, 200)}`;
  }
  const error = body.error;
  if (
    !error ||
    error.statusCode !== response.statusCode ||
    typeof error.message !== 'string' ||
    typeof error.name !== 'string'
  ) {
    return `answered ${response.statusCode} without the error envelope: ${response.body.slice(0, 200)}`;
  }
  return undefined;
}

describe(`bad input from the OpenAPI document on ${testDb}`, () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    const response = await call(t, 'GET', '/api/docs/json');
    expect(response.statusCode).toBe(200);
    document = response.json<OpenApiDocument>();
  });
  afterAll(async () => t?.close());

  async function send(request: BadRequest, token: string | undefined): Promise<LightMyRequestResponse> {
    return t.app.inject({
      method: request.method,
      url: request.url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
      },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
  }

  /** A working admin token: the requests may suspend or demote the admin they run as, so check before each operation. */
  async function adminToken(): Promise<string> {
    if (admin) {
      const me = await call(t, 'GET', '/api/user/me', { token: admin.token });
      if (me.statusCode === 200 && me.json<{ roleTypeId: number }>().roleTypeId === RoleType.Admin)
        return admin.token;
    }
    admin = await createUser(t, RoleType.Admin);
    return admin.token;
  }

  it('[API-1] every operation answers malformed and hostile params, queries and bodies (about 8,400 requests, the count is logged) with a 4xx envelope, never a 5xx', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
    );
    expect(operations.length).toBeGreaterThan(40);
    const problems: string[] = [];
    let sent = 0;
    for (const { method, path, operation } of operations) {
      const requests = requestsFor(method, path, operation);
      for (const caller of ['admin', 'anonymous'] as const) {
        const token = caller === 'admin' ? await adminToken() : undefined;
        for (const request of requests) {
          const response = await send(request, token);
          sent += 1;
          const wrong = problem(response);
          if (wrong) {
            const body = request.payload === undefined ? '' : ` body ${request.payload.slice(0, 120)}`;
            problems.push(`${caller} ${request.method} ${request.url.slice(0, 120)}${body}: ${wrong}`);
          }
        }
      }
    }
    console.log(`bad-input on ${testDb}: ${sent} requests to ${operations.length} operations`);
    expect(problems.slice(0, 40), `${problems.length} problems`).toEqual([]);
    expect(sent).toBeGreaterThan(5000);
  }, 120_000);
});

describe(`loose path ids on ${testDb}`, () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let admin: TestUser;

  /** Every row of the tables a route with an id could change, to compare before and after. */
  async function everything(): Promise<unknown[]> {
    const tables = [
      'users',
      'games',
      'gameFiles',
      'helperFiles',
      'userGames',
      'gameVersions',
      'versionFiles',
    ] as const;
    return Promise.all(
      tables.map((table) => t.database.db.selectFrom(table).selectAll().orderBy('id').execute()),
    );
  }

  beforeAll(async () => {
    t = await createTestApp();
    document = (await call(t, 'GET', '/api/docs/json')).json<OpenApiDocument>();
    // Rows with ids 1 and 2 (and 16 for users) in every table a loose id could have reached.
    admin = await createUser(t, RoleType.Admin);
    const users = [admin];
    while (users.length < 16) users.push(await createUser(t));
    for (const name of ['First', 'Second']) {
      const game = await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name, description: 'd', width: 640, height: 480 },
      });
      expect(game.statusCode, game.body).toBe(201);
      const id = game.json<{ id: number }>().id;
      const upload = await t.app.inject({
        method: 'POST',
        url: `/api/game/upload/${id}`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: filesForm([
          { path: 'index.html', content: '<html></html>' },
          { path: 'notes.txt', content: 'x' },
        ]),
      });
      expect(upload.statusCode, upload.body).toBe(200);
      const helper = await t.app.inject({
        method: 'POST',
        url: `/api/games/${id}/psd-files`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: filesForm([{ path: 'art.psd', content: 'psd' }]),
      });
      expect(helper.statusCode, helper.body).toBe(200);
      const userGame = await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: users[1]!.id, gameId: id, userGameTypeId: 1, jobPrice: 10 },
      });
      expect(userGame.statusCode, userGame.body).toBe(201);
      const version = await call(t, 'POST', '/api/game-versions', {
        token: users[1]!.token,
        payload: {
          name: `Look ${name}`,
          description: 'My look',
          gameId: id,
          userGamesId: userGame.json<{ id: number }>().id,
        },
      });
      expect(version.statusCode, version.body).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  it('[API-1] every id in every route path written loosely (%201, 0x10, 1e3, 0002, -1, +1, 2147483648) answers 400 or 404 in the envelope and changes nothing', async () => {
    const before = await everything();
    const problems: string[] = [];
    let sent = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const ids = (operation.parameters ?? [])
          .filter((p) => p.in === 'path' && p.name !== 'document')
          .map((p) => p.name);
        for (const name of ids) {
          for (const value of looseIds) {
            const url = path.replace(/\{([^}]+)\}/g, (_, param: string) => (param === name ? value : '1'));
            const response = await call(t, method.toUpperCase() as InjectOptions['method'] & string, url, {
              token: admin.token,
            });
            sent += 1;
            const wrong = problem(response);
            if (wrong) problems.push(`${method} ${url}: ${wrong}`);
            else if (response.statusCode !== 400 && response.statusCode !== 404)
              problems.push(`${method} ${url}: answered ${response.statusCode}`);
            else if (response.statusCode === 400 && errorOf(response).code !== 'VALIDATION_FAILED')
              problems.push(`${method} ${url}: ${response.body.slice(0, 200)}`);
          }
        }
      }
    }
    console.log(`loose ids on ${testDb}: ${sent} requests`);
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(200);
    expect(await everything()).toEqual(before);
    // The admin is still there and still an admin (DELETE /user/delete/%201 and PUT /user/role/0x10/... acted on nobody).
    expect((await call(t, 'GET', '/api/user/me', { token: admin.token })).json()).toMatchObject({
      id: admin.id,
      roleTypeId: RoleType.Admin,
    });
  });

  it('[API-1] the same ids written plainly still work, and a loose role id is refused too', async () => {
    expect((await call(t, 'GET', `/api/user/detail/${admin.id}`, { token: admin.token })).statusCode).toBe(
      200,
    );
    expect((await call(t, 'GET', '/api/games/1', { token: admin.token })).statusCode).toBe(200);
    for (const roleId of ['0100', '1e2', '+100', '%20100']) {
      const response = await call(t, 'PUT', `/api/user/role/2/${roleId}`, { token: admin.token });
      expect(response.statusCode, roleId).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
    }
  });
});

describe(`bad play-origin paths on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('[API-1] malformed and hostile play paths answer a 4xx envelope, never a 5xx', async () => {
    const paths = [
      '/p/%FF/index.html',
      '/p/x/%FF',
      `/p/${'t'.repeat(3000)}/index.html`,
      '/p/constructor/__proto__',
      '/p/%00/%E2%80%AE.js',
      '/p/x/..%2F..%2Fetc%2Fpasswd',
      `/p/x/${'a/'.repeat(2000)}`,
      // The shared URLs (decision 0037).
      '/s/%FF/x/index.html',
      '/s/x/%FF/a.js',
      `/s/${'t'.repeat(3000)}/x/index.html`,
      '/s/constructor/__proto__/x',
      '/s/x/y/..%2F..%2Fetc%2Fpasswd',
      '/s/x',
      '/s/x/y',
    ];
    for (const url of paths) {
      const response = await t.playApp.inject({ method: 'GET', url });
      expect(problem(response), url.slice(0, 80)).toBeUndefined();
      expect(response.statusCode, url.slice(0, 80)).toBeGreaterThanOrEqual(400);
    }
  });
});

describe(`names and paths refuse control and bidi-override characters on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => t?.close());

  const unsafe = [
    'Game\u202eexe.png',
    'Line\nbreak',
    'C1\u0085control',
    'Isolate\u2066x\u2069',
    'Nul\u0000byte',
  ];

  /** A 422 VALIDATION_FAILED naming the field with the contract's message. */
  function expectUnsafe(response: LightMyRequestResponse, path: string) {
    expect(response.statusCode, response.body).toBe(422);
    expect(
      response.json<{ error: { details: { path: string; message: string }[] } }>().error.details,
    ).toContainEqual(expect.objectContaining({ path, message: validationMessages.unsafeCharacters }));
  }

  it('[VAL-8] a game name (create and edit) with control or bidi characters answers 422', async () => {
    const created = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Plain', description: 'd', width: 640, height: 480 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    for (const name of unsafe) {
      expectUnsafe(
        await call(t, 'POST', '/api/games', {
          token: admin.token,
          payload: { name, description: 'd', width: 640, height: 480 },
        }),
        '/name',
      );
      expectUnsafe(
        await call(t, 'PATCH', `/api/games/${id}`, {
          token: admin.token,
          payload: { name, description: 'd', width: 640, height: 480 },
        }),
        '/name',
      );
    }
  });

  it('[VAL-8] a version name (create and edit) with control or bidi characters answers 422', async () => {
    for (const name of unsafe) {
      const payload = { name, description: 'My new look', gameId: 1, userGamesId: 1, isLocked: false };
      expectUnsafe(await call(t, 'POST', '/api/game-versions', { token: admin.token, payload }), '/name');
      expectUnsafe(
        await call(t, 'PATCH', '/api/game-versions/1', {
          token: admin.token,
          payload: { name, description: 'My new look' },
        }),
        '/name',
      );
    }
  });

  it('[VAL-8] an uploaded path with control or bidi characters is refused and nothing is stored', async () => {
    const created = await call(t, 'POST', '/api/games', {
      token: admin.token,
      payload: { name: 'Paths', description: 'd', width: 640, height: 480 },
    });
    const id = created.json<{ id: number }>().id;
    for (const path of [
      'assets/\u202egnp.js',
      'assets/c1\u009b.png',
      'assets/\u2067x\u2069.png',
      'line\nbreak.js',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/game/upload/${id}`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: filesForm([{ path, content: 'x' }]),
      });
      expect(response.statusCode, `${JSON.stringify(path)}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(errorOf(response).statusCode).toBe(response.statusCode);
    }
    expect(storedKeys(t)).toEqual([]);
  });
});
