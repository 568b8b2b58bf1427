import { createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, RoleType } from '@reskin/contract';
import { isDatabaseUnavailable } from '../src/db/database';
import { PlayTokens } from '../src/modules/play-paths/play-tokens';
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
import { freePort, startPrivatePostgres, type PrivatePostgres } from './support/private-postgres';

// These tests start and stop a PostgreSQL cluster of their own, so they need neither run's database. They run
// once, in the PostgreSQL run of the suite (scripts/test.mjs runs the whole suite once per database).
const reason = 'runs in the PostgreSQL run of the suite only (TEST_DB=postgres)';

describe.skipIf(testDb !== 'postgres')(`a PostgreSQL restart under a running app (${reason})`, () => {
  let cluster: PrivatePostgres | undefined;
  let t: TestApp | undefined;
  let admin: TestUser;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    t = await createTestApp({ databaseUrl: cluster.url });
    admin = await createUser(t, RoleType.Admin);
  });
  afterAll(async () => {
    try {
      await t?.close();
    } finally {
      await cluster?.destroy();
    }
  });

  const app = () => t!;
  const listUsers = () => call(app(), 'POST', '/api/user/list', { token: admin.token, payload: {} });
  const ready = () => app().app.inject({ method: 'GET', url: '/api/health/ready' });
  const live = () => app().app.inject({ method: 'GET', url: '/api/health' });

  it('works while the database runs', async () => {
    // Calls at the same time open several connections: the pool keeps them idle for the outage below to break.
    const lists = await Promise.all([listUsers(), listUsers(), listUsers()]);
    expect(lists.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect((await login(app(), admin.email, admin.password)).statusCode).toBe(200);
    expect((await ready()).statusCode).toBe(200);
  });

  it('survives losing a connection in the middle of a transaction: the next query fails, the process runs on', async () => {
    // The idle connections of the pool are ended too: both kinds of loss must leave the process running.
    const failure = await app()
      .database.db.transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await cluster!.stop();
        await sql`select 1`.execute(trx);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });

  it('answers 503 DATABASE_UNAVAILABLE in the envelope while the database is down; liveness stays 200', async () => {
    const list = await listUsers();
    expect(list.statusCode).toBe(503);
    expect(errorOf(list)).toMatchObject({
      statusCode: 503,
      name: 'ServiceUnavailableError',
      code: errorCodes.databaseUnavailable,
    });

    const me = await call(app(), 'GET', '/api/user/me', { token: admin.token });
    expect(me.statusCode).toBe(503);
    const loggingIn = await login(app(), admin.email, admin.password);
    expect(errorOf(loggingIn).code).toBe(errorCodes.databaseUnavailable);
    const signup = await app().app.inject({ method: 'POST', url: '/api/user/signup', payload: signupBody() });
    expect(errorOf(signup).code).toBe(errorCodes.databaseUnavailable);

    // The play origin reads the game's files from the database too.
    const token = await new PlayTokens(app().config.jwtSecret).sign({ g: 1, view: 'original', u: admin.id });
    const play = await app().playApp.inject({ method: 'GET', url: `/p/${token}/index.html` });
    expect(play.statusCode).toBe(503);
    expect(errorOf(play).code).toBe(errorCodes.databaseUnavailable);

    const alive = await live();
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ status: 'ok' });
    const notReady = await ready();
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toMatchObject({
      status: 'unavailable',
      checks: { database: 'unavailable', storage: 'ok' },
    });
  });

  it('answers again once the database is back, without a restart of the app', async () => {
    await cluster!.start();
    expect((await listUsers()).statusCode).toBe(200);
    expect((await login(app(), admin.email, admin.password)).statusCode).toBe(200);
    expect((await call(app(), 'GET', '/api/user/me', { token: admin.token })).json()).toMatchObject({
      id: admin.id,
    });
    const back = await ready();
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('refuses at once to start on a database that answers but cannot be used, in one line', async () => {
    const missing = cluster!.url.replace(/\/postgres$/, '/no_such_database');
    const failure = await createTestApp({ databaseUrl: missing, databaseStartupTimeoutMs: 600_000 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      `Cannot use the database at ${missing}: database "no_such_database" does not exist`,
    );
  });
});

describe.skipIf(testDb !== 'postgres')(`a start while PostgreSQL is unreachable (${reason})`, () => {
  it('gives up after DATABASE_STARTUP_TIMEOUT_SECONDS with one line that names the database but not its password', async () => {
    const port = await freePort();
    const failure = await createTestApp({
      databaseUrl: `postgres://reskin:s3cret-pass@127.0.0.1:${port}/reskin?sslmode=disable`,
      databaseStartupTimeoutMs: 1500,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      `Cannot reach the database at postgres://reskin@127.0.0.1:${port}/reskin after 1.5 s: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('keeps trying until then: a server that hangs up on every connection is tried more than once', async () => {
    const attempts: Socket[] = [];
    const server = createServer((socket) => {
      attempts.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const failure = await createTestApp({
        databaseUrl: `postgres://reskin@127.0.0.1:${port}/reskin`,
        databaseStartupTimeoutMs: 1500,
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failure as Error).message).toMatch(
        /^Cannot reach the database at postgres:\/\/reskin@127\.0\.0\.1:\d+\/reskin after 1\.5 s: Connection terminated/,
      );
      expect(attempts.length).toBeGreaterThan(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
