import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { RoleType, type User } from '@reskin/contract';
import { ensureAdmin } from '../src/seed/seed';
import { UsersRepository } from '../src/modules/users/users.repository';
import { call, createTestApp, login, testDb, type TestApp } from './helpers';

const demo = [
  { email: 'admin@example.com', password: 'admin1234', roleTypeId: RoleType.Admin },
  { email: 'user@example.com', password: 'user12345', roleTypeId: RoleType.User },
  { email: 'demo@example.com', password: 'demo12345', roleTypeId: RoleType.Demo },
];

async function tokenOf(t: TestApp, email: string, password: string): Promise<string> {
  const response = await login(t, email, password);
  expect(response.statusCode, `${email}: ${response.body}`).toBe(200);
  return response.json<{ token: string }>().token;
}

async function allUsers(t: TestApp, token: string): Promise<User[]> {
  const response = await call(t, 'POST', '/api/user/list', { token, payload: { order: 'id ASC' } });
  expect(response.statusCode).toBe(200);
  return response.json<User[]>();
}

describe(`[API-1] seeding at start-up on ${testDb}`, () => {
  // Apps of one test, closed after it: the second app on a database first, the database's owner last.
  let apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.reverse()) await app.close();
    apps = [];
  });

  it('[API-1] seedDemo creates the admin, user and demo logins with their roles', async () => {
    const t = await createTestApp({ seedDemo: true });
    apps.push(t);
    for (const account of demo) {
      const token = await tokenOf(t, account.email, account.password);
      const me = await call(t, 'GET', '/api/user/me', { token });
      expect(me.json<User>()).toMatchObject({
        email: account.email,
        roleTypeId: account.roleTypeId,
        activated: true,
      });
    }
    const adminToken = await tokenOf(t, 'admin@example.com', 'admin1234');
    expect((await call(t, 'GET', '/api/admin/update', { token: adminToken })).statusCode).toBe(200);
    expect((await allUsers(t, adminToken)).map((u) => u.email)).toEqual(demo.map((d) => d.email));
  });

  it('[API-1] a second start on the same database does not duplicate the demo accounts', async () => {
    const first = await createTestApp({ seedDemo: true });
    apps.push(first);
    const second = await createTestApp(
      { seedDemo: true },
      { dataDir: first.config.dataDir, schema: first.schema },
    );
    apps.push(second);
    const token = await tokenOf(second, 'admin@example.com', 'admin1234');
    const users = await allUsers(second, token);
    expect(users.map((u) => u.email)).toEqual(demo.map((d) => d.email));
    // Both apps serve the same data (stateless servers on one database).
    expect((await call(first, 'GET', '/api/user/me', { token })).statusCode).toBe(200);
    for (const account of demo) await tokenOf(second, account.email, account.password);
  });

  it('[API-1] without seedDemo nothing is seeded', async () => {
    const t = await createTestApp();
    apps.push(t);
    expect((await login(t, 'admin@example.com', 'admin1234')).statusCode).toBe(401);
  });

  it('[API-1] the configured admin is created and can call admin calls', async () => {
    const t = await createTestApp({ admin: { email: 'boss@example.com', password: 'boss-pass-123' } });
    apps.push(t);
    const token = await tokenOf(t, 'boss@example.com', 'boss-pass-123');
    const me = await call(t, 'GET', '/api/user/me', { token });
    expect(me.json<User>()).toMatchObject({
      email: 'boss@example.com',
      roleTypeId: RoleType.Admin,
      activated: true,
    });
    expect((await call(t, 'POST', '/api/user/list', { token, payload: {} })).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/admin/update', { token })).statusCode).toBe(200);
  });

  it('[API-1] starting again with another admin password resets it (and restores the role and active flag), without a second account', async () => {
    const first = await createTestApp({ admin: { email: 'boss@example.com', password: 'boss-pass-123' } });
    apps.push(first);
    const oldToken = await tokenOf(first, 'boss@example.com', 'boss-pass-123');
    // Someone demotes and suspends the boss in the meantime (directly in the database).
    const bossId = (await call(first, 'GET', '/api/user/me', { token: oldToken })).json<User>().id;
    await first.database.db
      .updateTable('users')
      .set({ roleTypeId: RoleType.Demo, activated: 0 })
      .where('id', '=', bossId)
      .execute();
    expect((await login(first, 'boss@example.com', 'boss-pass-123')).statusCode).toBe(401);

    const second = await createTestApp(
      { admin: { email: 'Boss@Example.com', password: 'another-pass-456' } },
      { dataDir: first.config.dataDir, schema: first.schema },
    );
    apps.push(second);
    expect((await login(second, 'boss@example.com', 'boss-pass-123')).statusCode).toBe(401);
    const token = await tokenOf(second, 'boss@example.com', 'another-pass-456');
    const me = await call(second, 'GET', '/api/user/me', { token });
    expect(me.json<User>()).toMatchObject({ id: bossId, roleTypeId: RoleType.Admin, activated: true });
    const users = await allUsers(second, token);
    expect(users.filter((u) => u.email === 'boss@example.com')).toHaveLength(1);
  });

  it('[API-1] several servers creating the configured admin at once make one account', async () => {
    const t = await createTestApp();
    apps.push(t);
    const admin = { email: 'boss@example.com', password: 'boss-pass-123' };
    // What each app server does at start, on the one database: all four found no account and insert at once.
    const servers = 4;
    let arrived = 0;
    let allArrived!: () => void;
    const barrier = new Promise<void>((resolve) => (allArrived = resolve));
    const insert = UsersRepository.prototype.insert;
    const spy = vi.spyOn(UsersRepository.prototype, 'insert').mockImplementation(async function (
      this: UsersRepository,
      ...args
    ) {
      if (++arrived === servers) allArrived();
      await barrier;
      return insert.apply(this, args);
    });
    try {
      await Promise.all(Array.from({ length: servers }, () => ensureAdmin(t.database.db, admin, t.app.log)));
    } finally {
      spy.mockRestore();
    }
    expect(arrived).toBe(servers);
    const token = await tokenOf(t, admin.email, admin.password);
    expect((await allUsers(t, token)).filter((u) => u.email === admin.email)).toHaveLength(1);
  });

  it('[API-1] the configured admin and the demo accounts live side by side', async () => {
    const t = await createTestApp({
      seedDemo: true,
      admin: { email: 'boss@example.com', password: 'boss-pass-123' },
    });
    apps.push(t);
    const token = await tokenOf(t, 'boss@example.com', 'boss-pass-123');
    expect((await allUsers(t, token)).map((u) => u.email)).toEqual([
      ...demo.map((d) => d.email),
      'boss@example.com',
    ]);
  });
});

describe(`[API-1] OpenAPI document on ${testDb}`, () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('[API-1] GET /api/docs/json is an OpenAPI 3.x document listing the users and admin calls', async () => {
    t = await createTestApp();
    const response = await call(t, 'GET', '/api/docs/json');
    expect(response.statusCode).toBe(200);
    const document = response.json<{
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toEqual(expect.any(String));
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/user/login',
        '/api/user/me',
        '/api/user/signup',
        '/api/user/list',
        '/api/admin/update',
      ]),
    );
    expect(document.paths['/api/user/login']).toHaveProperty('post');
    expect(document.paths['/api/admin/update']).toHaveProperty('get');
    expect(JSON.stringify(document)).not.toContain('passwordHash');
  });
});
