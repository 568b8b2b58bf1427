import { sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { GameStatus, RoleType, generationFailureMessage, type Game } from '@reskin/contract';
import { call, createTestApp, createUser, filesForm, testDb, type TestApp, type TestUser } from './helpers';
import { solidPng } from './support/image-samples';

// Generation jobs on PostgreSQL's job queue (decisions 0016 and 0064): any app server runs any job, a job whose
// server died moves to another after its lease, a live server renews its lease and never shares a game with another,
// long jobs run in slices that go on where the last one stopped, and progress is recorded. Two apps on one database
// stand for two app servers.
const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Polls until `check` answers a value; gives up after `limitMs` (a generous bound, not a timing assertion). */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  limitMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** pg-boss on a test app's job schema, as another server's queue client that is not a worker. */
async function queueClient(t: TestApp): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: `${t.schema}_jobs`,
    max: 1,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  await boss.start();
  return boss;
}

async function jobCount(t: TestApp, name: string): Promise<number> {
  const { rows } = await sql<{
    count: string;
  }>`select count(*)::text as count from ${sql.table(`${t.schema}_jobs.job`)} where name = ${name}`.execute(
    t.database.db,
  );
  return Number(rows[0]!.count);
}

// Two servers, their leases and real image work per test: a minute is not much on a busy machine.
describe.runIf(testDb === 'postgres')(
  'generation jobs on the PostgreSQL job queue',
  { timeout: 120_000 },
  () => {
    let apps: TestApp[] = [];
    afterEach(async () => {
      for (const app of apps.reverse()) await app.close();
      apps = [];
    });

    /** Two app servers on one new database, with this lease. */
    async function twoServers(leaseMs: number, sliceMs?: number): Promise<[TestApp, TestApp, TestUser]> {
      const a = await createTestApp({ generationLeaseMs: leaseMs, generationSliceMs: sliceMs });
      apps.push(a);
      const b = await createTestApp(
        { generationLeaseMs: leaseMs, generationSliceMs: sliceMs },
        { dataDir: a.config.dataDir, schema: a.schema },
      );
      apps.push(b);
      return [a, b, await createUser(a, RoleType.Admin)];
    }

    async function gameWithImages(t: TestApp, admin: TestUser, images: number, size = 64): Promise<Game> {
      const game = (
        await call(t, 'POST', '/api/games', {
          token: admin.token,
          payload: { name: `Jobs ${images}`, description: 'x', width: 480, height: 640 },
        })
      ).json<Game>();
      const colours = ['red', 'green', 'blue', 'orange'];
      const files = [{ path: 'index.html', content: '<p>' }];
      for (let i = 0; i < images; i++)
        files.push({
          path: `img/${i}.png`,
          content: (await solidPng(size, size, colours[i % colours.length])) as never,
        });
      const uploaded = await t.app.inject({
        method: 'POST',
        url: `/api/game/upload/${game.id}`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: filesForm(files),
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      return game;
    }

    const gameOn = async (t: TestApp, admin: TestUser, id: number) =>
      (await call(t, 'GET', `/api/games/${id}`, { token: admin.token })).json<Game>();

    it('"Gen." pressed on both servers at once starts one job, which one of them runs to Ready with its progress', async () => {
      const [a, b, admin] = await twoServers(60_000);
      const game = await gameWithImages(a, admin, 6);
      const presses = await Promise.all(
        [a, b, a, b].map((t) => call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token })),
      );
      expect(presses.map((p) => p.statusCode)).toEqual([200, 200, 200, 200]);
      await a.generation.idle();
      const ready = await gameOn(b, admin, game.id);
      expect(ready.gameStatusTypeId).toBe(GameStatus.Ready);
      expect([ready.generationDone, ready.generationTotal]).toEqual([6, 6]);
      expect(await jobCount(a, 'generate-game')).toBe(1);
    });

    it('a long job runs in slices within the lease, each going on from the images done, with progress that only grows', async () => {
      // Slices of half a second, so 40 large images take several; a lease of 10 s, so that one image made slowly on a
      // loaded machine cannot outlast it (with a lease of 1 s it did, and the job failed).
      const [a, , admin] = await twoServers(10_000, 500);
      const game = await gameWithImages(a, admin, 40, 1024);
      await call(a, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
      const seen: number[] = [];
      const ready = await eventually(
        'Ready',
        async () => {
          const now = await gameOn(a, admin, game.id);
          expect(now.gameStatusTypeId).not.toBe(GameStatus.Failed);
          if (now.generationDone !== null) seen.push(now.generationDone);
          return now.gameStatusTypeId === GameStatus.Ready ? now : undefined;
        },
        150_000,
      );
      expect([ready.generationDone, ready.generationTotal]).toEqual([40, 40]);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
      expect(await jobCount(a, 'generate-game')).toBeGreaterThan(1);
    }, 180_000);

    it('a slice that runs longer than the lease keeps its job: its server renews the lease, so no other server retries it', async () => {
      // Slices of 4 s against a lease of 2 s: without the renewals every slice would expire and be retried elsewhere.
      const [a, , admin] = await twoServers(2000, 4000);
      const game = await gameWithImages(a, admin, 60, 1024);
      await call(a, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
      const ready = await eventually(
        'Ready',
        async () => {
          const now = await gameOn(a, admin, game.id);
          expect(now.gameStatusTypeId).not.toBe(GameStatus.Failed);
          return now.gameStatusTypeId === GameStatus.Ready ? now : undefined;
        },
        150_000,
      );
      expect([ready.generationDone, ready.generationTotal]).toEqual([60, 60]);
      // The game is Ready when its last slice commits; the slice's job is completed just after: wait for that.
      await a.generation.idle();
      // Every slice's job ended completed at its first try: none expired, none ran twice.
      const { rows } = await sql<{ state: string; retries: number }>`
      select state, retry_count as retries from ${sql.table(`${a.schema}_jobs.job`)}
      where name = 'generate-game'`.execute(a.database.db);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((row) => [row.state, row.retries])).toEqual(rows.map(() => ['completed', 0]));
      // 60 large images take 10-15 s on a quiet machine, several times that beside a busy one.
    }, 180_000);

    it('a job whose game another server is still working waits for that server, renewing its lease, and then goes on', async () => {
      const [a, b, admin] = await twoServers(2000, 500);
      const game = await gameWithImages(a, admin, 4);
      // A server whose slice of the game still runs holds the game's advisory lock (generation-queue.ts: the queue's
      // schema and the game's id), as this connection does now.
      const other = new pg.Client({ connectionString: databaseUrl });
      await other.connect();
      try {
        await other.query('select pg_advisory_lock(hashtext($1), $2)', [`${a.schema}_jobs`, game.id]);
        await call(b, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
        // A server fetched the job and renews its lease while it waits: the job's start moves on twice.
        const jobStart = async () => {
          const { rows } = await sql<{ startedOn: Date | null }>`
          select started_on as "startedOn" from ${sql.table(`${a.schema}_jobs.job`)}
          where name = 'generate-game' and state = 'active'`.execute(a.database.db);
          return rows[0]?.startedOn?.getTime();
        };
        const fetched = await eventually('the job fetched', jobStart);
        const renewed = await eventually('the lease renewed', async () => {
          const start = await jobStart();
          return start !== undefined && start > fetched ? start : undefined;
        });
        await eventually('the lease renewed again', async () => {
          const start = await jobStart();
          return start !== undefined && start > renewed ? start : undefined;
        });
        // Nothing of the game was made meanwhile: no slice has started.
        const waiting = await gameOn(a, admin, game.id);
        expect([waiting.gameStatusTypeId, waiting.generationTotal ?? null]).toEqual([
          GameStatus.Generating,
          null,
        ]);
        expect(await jobCount(a, 'generate-game')).toBe(1);
      } finally {
        await other.end();
      }
      // The other server's session has ended, and the lock with it: the job goes on to Ready.
      const ready = await eventually('Ready', async () => {
        const now = await gameOn(a, admin, game.id);
        return now.gameStatusTypeId === GameStatus.Ready ? now : undefined;
      });
      expect([ready.generationDone, ready.generationTotal]).toEqual([4, 4]);
    });

    it('a job whose server died holding it moves to another server once the lease has run out, and ends Ready', async () => {
      const [a, b, admin] = await twoServers(2000);
      const game = await gameWithImages(a, admin, 4);
      // A third server takes the job and dies with it: it fetched the job (active, leased) and never ends it.
      await a.generation.close();
      await b.generation.close();
      await a.database.db
        .updateTable('games')
        .set({ gameStatusTypeId: GameStatus.Generating, generationDone: 0 })
        .where('id', '=', game.id)
        .execute();
      const dead = await queueClient(a);
      await dead.send('generate-game', { gameId: game.id });
      const [taken] = await dead.fetch<{ gameId: number }>('generate-game');
      expect(taken!.data.gameId).toBe(game.id);
      await dead.stop({ graceful: false, close: true });

      // A server that starts now does not fail the running job, and takes it over once its lease is over.
      const c = await createTestApp(
        { generationLeaseMs: 2000 },
        { dataDir: a.config.dataDir, schema: a.schema },
      );
      apps.push(c);
      expect((await gameOn(c, admin, game.id)).gameStatusTypeId).toBe(GameStatus.Generating);
      const ready = await eventually('Ready through the other server', async () => {
        const now = await gameOn(c, admin, game.id);
        return now.gameStatusTypeId === GameStatus.Ready ? now : undefined;
      });
      expect([ready.generationDone, ready.generationTotal]).toEqual([4, 4]);
    });

    it('a job that failed for good (its dead letter) leaves the game Failed with the reason, so Gen. can be pressed again', async () => {
      const [a, , admin] = await twoServers(60_000);
      const game = await gameWithImages(a, admin, 1);
      await a.database.db
        .updateTable('games')
        .set({ gameStatusTypeId: GameStatus.Generating })
        .where('id', '=', game.id)
        .execute();
      const client = await queueClient(a);
      // What pg-boss does with a job whose retries are used up: its data goes to the dead-letter queue.
      await client.send('generate-game-failed', { gameId: game.id });
      await client.stop({ close: true });
      const failed = await eventually('Failed', async () => {
        const now = await gameOn(a, admin, game.id);
        return now.gameStatusTypeId === GameStatus.Failed ? now : undefined;
      });
      // The reason in words (decision 0052), not pg-boss's.
      expect(failed.statusReason).toBe(generationFailureMessage('kept_failing'));
      const again = await call(a, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
      expect(again.statusCode).toBe(200);
      await a.generation.idle();
      expect((await gameOn(a, admin, game.id)).gameStatusTypeId).toBe(GameStatus.Ready);
    });
  },
);
