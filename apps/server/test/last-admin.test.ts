import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, conflictMessages, errorCodes } from '@reskin/contract';
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

// The last active administrator cannot be suspended, deleted or demoted (409 LAST_ADMIN), also
// when two changes race (the check and the change share a transaction that locks the active admins' rows).

/** The ids of the active administrators, read from the database. */
async function activeAdminIds(t: TestApp): Promise<number[]> {
  const rows = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('roleTypeId', '=', RoleType.Admin)
    .where('activated', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Makes every active administrator but `keep` a regular user, directly in the database (test set-up). */
async function onlyAdmins(t: TestApp, keep: TestUser[]): Promise<void> {
  await t.database.db
    .updateTable('users')
    .set({ roleTypeId: RoleType.User })
    .where('roleTypeId', '=', RoleType.Admin)
    .where(
      'id',
      'not in',
      keep.map((user) => user.id),
    )
    .execute();
}

function expectLastAdmin(response: LightMyRequestResponse, label: string): void {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(409);
  expect(errorOf(response), label).toMatchObject({
    statusCode: 409,
    name: 'ConflictError',
    code: errorCodes.lastAdmin,
    message: conflictMessages.lastAdmin,
  });
}

describe(`the last active admin on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('the only active admin cannot suspend themself: 409 LAST_ADMIN, still active and logged in', async () => {
    const admin = await createUser(t, RoleType.Admin);
    await onlyAdmins(t, [admin]);
    expectLastAdmin(await call(t, 'DELETE', '/api/user/disable', { token: admin.token }), 'suspend');
    expect(await activeAdminIds(t)).toEqual([admin.id]);
    expect((await call(t, 'GET', '/api/user/me', { token: admin.token })).statusCode).toBe(200);
    expect((await login(t, admin.email, admin.password)).statusCode).toBe(200);
  });

  it('with a second active admin one may suspend themself; then the other is the last and cannot', async () => {
    const first = await createUser(t, RoleType.Admin);
    const second = await createUser(t, RoleType.Admin);
    await onlyAdmins(t, [first, second]);
    expect((await call(t, 'DELETE', '/api/user/disable', { token: first.token })).statusCode).toBe(204);
    expectLastAdmin(
      await call(t, 'DELETE', '/api/user/disable', { token: second.token }),
      'suspend the other',
    );
    expect(await activeAdminIds(t)).toEqual([second.id]);
  });

  it('an admin may delete or demote another admin while an active one stays, and promote at any time', async () => {
    const keeper = await createUser(t, RoleType.Admin);
    const deleted = await createUser(t, RoleType.Admin);
    const demoted = await createUser(t, RoleType.Admin);
    await onlyAdmins(t, [keeper, deleted, demoted]);
    expect(
      (await call(t, 'DELETE', `/api/user/delete/${deleted.id}`, { token: keeper.token })).statusCode,
    ).toBe(204);
    expect(
      (await call(t, 'PUT', `/api/user/role/${demoted.id}/${RoleType.Demo}`, { token: keeper.token }))
        .statusCode,
    ).toBe(204);
    // Promoting never counts against the rule.
    expect(
      (await call(t, 'PUT', `/api/user/role/${demoted.id}/${RoleType.Admin}`, { token: keeper.token }))
        .statusCode,
    ).toBe(204);
    expect(await activeAdminIds(t)).toEqual([keeper.id, demoted.id]);
  });
});

describe(`the last active admin on two servers sharing one ${testDb} database`, () => {
  // Each server keeps the users it read for a while (PLAY_ACCESS_CACHE_SECONDS), so an admin demoted on one server
  // still acts as an admin on the other for that long: the rule must hold in the change itself, not in the guard.
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp({ playAccessCacheMs: 60_000 });
    two = await createTestApp(
      { playAccessCacheMs: 60_000 },
      { dataDir: one.config.dataDir, schema: one.schema },
    );
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('an admin demoted on another server can neither delete nor demote the last active admin, who cannot suspend themself either', async () => {
    const stale = await createUser(one, RoleType.Admin);
    const last = await createUser(one, RoleType.Admin);
    await onlyAdmins(one, [stale, last]);
    // Server one reads (and keeps) `stale` as an admin; server two demotes them: `last` is the only active admin.
    expect((await call(one, 'GET', '/api/user/me', { token: stale.token })).statusCode).toBe(200);
    expect(
      (await call(two, 'PUT', `/api/user/role/${stale.id}/${RoleType.User}`, { token: last.token }))
        .statusCode,
    ).toBe(204);
    expect(await activeAdminIds(one)).toEqual([last.id]);

    expectLastAdmin(
      await call(one, 'PUT', `/api/user/role/${last.id}/${RoleType.User}`, { token: stale.token }),
      'demote to user',
    );
    expectLastAdmin(
      await call(one, 'PUT', `/api/user/role/${last.id}/${RoleType.Demo}`, { token: stale.token }),
      'demote to demo',
    );
    expectLastAdmin(
      await call(one, 'DELETE', `/api/user/delete/${last.id}`, { token: stale.token }),
      'delete',
    );
    expectLastAdmin(await call(two, 'DELETE', '/api/user/disable', { token: last.token }), 'suspend');
    expect(await activeAdminIds(one)).toEqual([last.id]);
    expect(
      (await call(two, 'GET', `/api/user/detail/${last.id}`, { token: last.token })).json(),
    ).toMatchObject({
      roleTypeId: RoleType.Admin,
      activated: true,
    });
  });
});

describe.runIf(testDb === 'postgres')('two admins removing each other at once on PostgreSQL', () => {
  // Two servers on one database, each keeping its users for a minute, so both requests of a pair pass their
  // guards (each caller is an active admin when it is checked) and only the change itself can keep one admin.
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp({ playAccessCacheMs: 60_000 });
    two = await createTestApp(
      { playAccessCacheMs: 60_000 },
      { dataDir: one.config.dataDir, schema: one.schema },
    );
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  type Race = (
    a: TestUser,
    b: TestUser,
  ) => [Promise<LightMyRequestResponse>, Promise<LightMyRequestResponse>];
  const races: Record<string, Race> = {
    'both suspend themselves': (a, b) => [
      call(one, 'DELETE', '/api/user/disable', { token: a.token }),
      call(two, 'DELETE', '/api/user/disable', { token: b.token }),
    ],
    'each demotes the other': (a, b) => [
      call(one, 'PUT', `/api/user/role/${b.id}/${RoleType.User}`, { token: a.token }),
      call(two, 'PUT', `/api/user/role/${a.id}/${RoleType.Demo}`, { token: b.token }),
    ],
    'one deletes the other, who demotes the first': (a, b) => [
      call(one, 'DELETE', `/api/user/delete/${b.id}`, { token: a.token }),
      call(two, 'PUT', `/api/user/role/${a.id}/${RoleType.User}`, { token: b.token }),
    ],
    'each deletes the other': (a, b) => [
      call(one, 'DELETE', `/api/user/delete/${b.id}`, { token: a.token }),
      call(two, 'DELETE', `/api/user/delete/${a.id}`, { token: b.token }),
    ],
  };
  const rounds = 5;

  for (const [name, race] of Object.entries(races)) {
    it(`${name}, ${rounds} times in parallel: one change succeeds, the other answers 409 LAST_ADMIN, one admin stays`, async () => {
      for (let round = 0; round < rounds; round += 1) {
        const a = await createUser(one, RoleType.Admin);
        const b = await createUser(one, RoleType.Admin);
        await onlyAdmins(one, [a, b]);
        // Each server reads its caller once, as it would have on an earlier request.
        expect((await call(one, 'GET', '/api/user/me', { token: a.token })).statusCode).toBe(200);
        expect((await call(two, 'GET', '/api/user/me', { token: b.token })).statusCode).toBe(200);

        const answers = await Promise.all(race(a, b));
        const statuses = answers.map((response) => response.statusCode).sort();
        expect(statuses, `round ${round}: ${answers.map((response) => response.body).join(' | ')}`).toEqual([
          204, 409,
        ]);
        expectLastAdmin(
          answers.find((response) => response.statusCode === 409)!,
          `round ${round}`,
        );
        const left = await activeAdminIds(one);
        expect(left, `round ${round}`).toHaveLength(1);
        expect([a.id, b.id]).toContain(left[0]);
      }
    });
  }

  it('the lock is taken: a change waits while another transaction holds the active admins', async () => {
    // Holds the admins' rows in an open transaction of its own; the suspension answers only after it ends, and
    // then sees the admin the holder removed.
    const a = await createUser(one, RoleType.Admin);
    const b = await createUser(one, RoleType.Admin);
    await onlyAdmins(one, [a, b]);
    expect((await call(two, 'GET', '/api/user/me', { token: b.token })).statusCode).toBe(200);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    let holderPid = 0;
    const holder = one.database.db.transaction().execute(async (trx) => {
      holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
      await sql`select id from users where "roleTypeId" = ${RoleType.Admin} and activated = 1 order by id for update`.execute(
        trx,
      );
      locked();
      await released;
      await trx.updateTable('users').set({ activated: 0 }).where('id', '=', a.id).execute();
    });
    await isLocked;
    let settled = false;
    const suspension = call(two, 'DELETE', '/api/user/disable', { token: b.token }).finally(() => {
      settled = true;
    });
    // The suspension's transaction waits on the lock: PostgreSQL shows a session blocked by the holder's.
    await expect
      .poll(
        async () => {
          const rows = await sql<{ waiting: number }>`
            select count(*)::int as waiting from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`.execute(
            one.database.db,
          );
          return rows.rows[0]!.waiting;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBeGreaterThan(0);
    expect(settled).toBe(false);
    release();
    await holder;
    expectLastAdmin(await suspension, 'suspend after the holder removed the other admin');
    expect(await activeAdminIds(one)).toEqual([b.id]);
  });
});
