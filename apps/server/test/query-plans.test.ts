import { CompiledQuery, sql, type Compilable, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameVersionStatus, RoleType } from '@reskin/contract';
import type { Database } from '../src/db/schema';
import { myGamesQuery, selectUserGames } from '../src/modules/user-games/user-games.repository';
import { selectVersions } from '../src/modules/versions/versions.repository';
import { createTestApp, testDb, type TestApp } from './helpers';

/**
 * The heavy reads' plans at ten times a studio's data (the API bench's 1x: 1,000 users, 200 games, 2,000
 * assignments, 6,000 versions), with notes and answers present (400,000 notes, most of them open first notes),
 * before and after the database has statistics (decision 0054). A count of open notes must look up the version's
 * open notes, never walk the table: without the partial index `notes_open_index`, SQLite counted through the replyTo
 * index (every first note of the database) for each assignment, 300-450 ms a My Games request at 40,000 notes.
 * Read as EXPLAIN (QUERY PLAN) output: a plan, not a time, so the test holds on any machine.
 */
const scale = 10;
const counts = { users: 1000 * scale, games: 200 * scale, assignmentsPerUser: 2 };

/** Rows 1..n in SQL, for seeding in one statement per table on either database. */
const series = (n: number) =>
  sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${sql.lit(n)})`;

async function seed(db: Kysely<Database>): Promise<{ busyArtist: number; userGameId: number }> {
  const now = testDb === 'postgres' ? sql`now()` : sql`'2026-11-28T12:00:00.000Z'`;
  const { users, games, assignmentsPerUser } = counts;
  await sql`${series(users)} insert into "users" ("username", "email", "passwordHash", "firstName", "lastName", "phone", "roleTypeId", "activated", "emailVerified", "dataProtectionRegulationVersion", "createdAt", "updatedAt")
    select 'plan_' || i, 'plan' || i || '@example.com', 'x', 'A', 'B', '5550000000', ${sql.lit(RoleType.User)}, 1, 1, 1, ${now}, ${now} from n`.execute(
    db,
  );
  await sql`${series(games)} insert into "games" ("name", "description", "width", "height", "gameStatusTypeId", "isActive", "imagePath", "rootPath", "createdAt", "updatedAt")
    select 'Game ' || i, 'x', 640, 480, 2, 1, 'img/splash.png', '', ${now}, ${now} from n`.execute(db);
  const first = (table: 'users' | 'games') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.min('id').as('id'))
      .executeTakeFirstOrThrow();
  const firstUser = Number((await first('users')).id);
  const firstGame = Number((await first('games')).id);
  // Each user two assignments of two games; each assignment three versions; each version six notes on files and
  // an answer: one resolved, the rest open, one of them the artist's own question.
  await sql`${series(users * assignmentsPerUser)} insert into "userGames" ("userId", "gameId", "userGameTypeId", "jobPrice", "isActive", "createdAt", "updatedAt")
    select ${sql.lit(firstUser)} + (i - 1) / ${sql.lit(assignmentsPerUser)}, ${sql.lit(firstGame)} + (i % ${sql.lit(games)}), 1, 100, 1, ${now}, ${now} from n`.execute(
    db,
  );
  await sql`insert into "gameVersions" ("name", "description", "gameId", "userGamesId", "userId", "isLocked", "isActive", "gameVersionStatusId", "finishedAt", "rootPath", "createdAt", "updatedAt")
    select 'Version ' || k.i, 'x', ug."gameId", ug."id", ug."userId", 0, 1, ${sql.lit(GameVersionStatus.Finished)}, ${now}, '', ${now}, ${now}
    from "userGames" ug cross join (select 1 as i union all select 2 union all select 3) k`.execute(db);
  await sql`insert into "notes" ("versionId", "fileId", "frame", "replyTo", "authorId", "text", "resolvedAt", "createdAt", "updatedAt")
    select v."id", k.i, null, null, case when k.i = 1 then v."userId" else ${sql.lit(firstUser)} end, 'A note', case when k.i = 2 then ${now} else null end, ${now}, ${now}
    from "gameVersions" v cross join (select 1 as i union all select 2 union all select 3 union all select 4 union all select 5 union all select 6) k`.execute(
    db,
  );
  await sql`insert into "notes" ("versionId", "fileId", "frame", "replyTo", "authorId", "text", "resolvedAt", "createdAt", "updatedAt")
    select n."versionId", n."fileId", null, n."id", ${sql.lit(firstUser)}, 'An answer', null, ${now}, ${now} from "notes" n where n."fileId" = 3`.execute(
    db,
  );
  const busyArtist = firstUser + 500;
  const userGameId = Number(
    (await db.selectFrom('userGames').select('id').where('userId', '=', busyArtist).executeTakeFirstOrThrow())
      .id,
  );
  return { busyArtist, userGameId };
}

/** The plan of a compiled query as text (its parameters bound, as the app runs it). */
async function planOf(db: Kysely<Database>, query: Compilable<unknown>): Promise<string> {
  const { sql: text, parameters } = query.compile();
  const explain = testDb === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(explain + text, [...parameters]),
  );
  return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
}

/**
 * The plan's lines that read more than the rows asked for: a scan of a busy table, or notes looked up by anything
 * but their version (`replyTo is null` alone is every first note of the database).
 */
function fullReads(plan: string): string[] {
  const busy = /\b(notes|gameVersions|userGames)\b/;
  return plan.split('\n').filter((line) => {
    if (!busy.test(line)) return false;
    if (testDb === 'sqlite')
      return /^\W*SCAN\b/.test(line.trim()) || (/\bnotes\b/.test(line) && !/versionId=/.test(line));
    return /Seq Scan/.test(line) || /notes_replyTo_index/.test(line);
  });
}

describe(`the heavy reads' plans at ${scale}x a studio's data, notes included, on ${testDb} (decision 0054)`, () => {
  let t: TestApp;
  let ids: { busyArtist: number; userGameId: number };
  beforeAll(async () => {
    t = await createTestApp();
    ids = await seed(t.database.db);
  }, 240_000);
  afterAll(async () => t?.close());

  const reads = () => {
    const db = t.database.db;
    return {
      'My Games (an artist, their assignments with open notes and questions)': myGamesQuery(
        db,
        ids.busyArtist,
      ),
      "an assignment's versions with their open notes and questions": selectVersions(db).where(
        'gameVersions.userGamesId',
        '=',
        ids.userGameId,
      ),
      "the admin's assignments of one artist with their counts": selectUserGames(db).where(
        'userGames.userId',
        '=',
        ids.busyArtist,
      ),
      'To review (finished versions without a verdict, oldest finish first), first page': selectVersions(db)
        .where('gameVersions.gameVersionStatusId', '=', GameVersionStatus.Finished)
        .where('gameVersions.verdict', 'is', null)
        .orderBy('gameVersions.finishedAt')
        .limit(50),
    };
  };

  it('before any statistics: every open-note count looks the version up in the open notes', async () => {
    for (const [what, query] of Object.entries(reads())) {
      const plan = await planOf(t.database.db, query);
      expect(fullReads(plan), `${what}:\n${plan}`).toEqual([]);
      if (what !== 'To review (finished versions without a verdict, oldest finish first), first page') {
        expect(plan, `${what}:\n${plan}`).toMatch(/notes_open_index/);
      }
    }
  });

  it('with statistics (PRAGMA optimize on SQLite, ANALYZE on PostgreSQL): the same plans', async () => {
    await sql.raw(testDb === 'sqlite' ? 'pragma optimize=0x10002' : 'analyze').execute(t.database.db);
    for (const [what, query] of Object.entries(reads())) {
      const plan = await planOf(t.database.db, query);
      expect(fullReads(plan), `${what}:\n${plan}`).toEqual([]);
    }
  });
});
