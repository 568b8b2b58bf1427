import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema';
import { createTestApp, testDb, type TestApp } from './helpers';

// Every lookup the lists and deletes make by a column other than the id has an index, and the database uses it
//. SQLite's EXPLAIN QUERY PLAN names the index it searches; PostgreSQL's planner would scan tables
// this small sequentially, so sequential scans are switched off for the EXPLAIN: the plan then shows whether an
// index can serve the query at all. The lists' text searches (`like '%text%'`) cannot use a b-tree index and are
// not listed.
/** Per lookup, the indexes that may serve it (the planner picks among equivalent ones). */
const lookups: { what: string; query: string; index: { sqlite: string[]; postgres: string[] } }[] = [
  {
    what: "a game's versions (POST /game-versions/filter by gameId; a game's delete)",
    query: 'select * from "gameVersions" where "gameId" = 7',
    index: { sqlite: ['gameVersions_game_index'], postgres: ['gameVersions_game_index'] },
  },
  {
    what: "a user-game's versions (its review page, the versionCount of user-games)",
    query: 'select * from "gameVersions" where "userGamesId" = 7',
    index: { sqlite: ['gameVersions_userGame_index'], postgres: ['gameVersions_userGame_index'] },
  },
  {
    what: "a user's versions of a game (the 6-version limit)",
    query: 'select * from "gameVersions" where "userId" = 3 and "gameId" = 7',
    index: {
      sqlite: ['gameVersions_user_game_index'],
      postgres: ['gameVersions_user_game_index', 'gameVersions_game_index'],
    },
  },
  {
    what: "an artist's active assignments (GET /user-games/my-games)",
    query: 'select * from "userGames" where "userId" = 3 and "isActive" = 1',
    index: { sqlite: ['userGames_user_index'], postgres: ['userGames_user_index'] },
  },
  {
    what: "a game's assignments (POST /user-games/filter by gameId)",
    query: 'select * from "userGames" where "gameId" = 7',
    index: { sqlite: ['userGames_game_index'], postgres: ['userGames_game_index'] },
  },
  {
    what: "a game's files (GET /games/{id}/files, the play origin's path lookup)",
    query: `select * from "gameFiles" where "gameId" = 7 and "path" = 'index.html'`,
    index: {
      sqlite: ['sqlite_autoindex_gameFiles_1'],
      postgres: ['gameFiles_game_path_unique', 'gameFiles_game_fileId_unique'],
    },
  },
  {
    what: "a version's files (the zip, the play origin's version view)",
    query: 'select * from "versionFiles" where "gameVersionId" = 7',
    index: { sqlite: ['sqlite_autoindex_versionFiles_1'], postgres: ['versionFiles_version_fileId_unique'] },
  },
  {
    what: "a game's helper files",
    query: 'select * from "helperFiles" where "gameId" = 7',
    index: { sqlite: ['sqlite_autoindex_helperFiles_1'], postgres: ['helperFiles_game_path_unique'] },
  },
  {
    what: "a version's notes and its open-note count (every version answer counts them)",
    query: 'select count(*) from "notes" where "versionId" = 7 and "resolvedAt" is null',
    index: { sqlite: ['notes_version_index'], postgres: ['notes_version_index'] },
  },
  {
    what: "one's inbox and its unread count",
    query: 'select * from "inboxEvents" where "userId" = 3 and "readAt" is null',
    index: { sqlite: ['inboxEvents_user'], postgres: ['inboxEvents_user'] },
  },
  {
    what: '"To review": Finished versions without a verdict, the oldest finish first',
    query:
      'select * from "gameVersions" where "gameVersionStatusId" = 2 and "verdict" is null order by "finishedAt"',
    index: { sqlite: ['gameVersions_review_index'], postgres: ['gameVersions_review_index'] },
  },
  {
    what: 'a login by email (stored in lower case)',
    query: `select * from "users" where "email" = 'a@example.com'`,
    index: { sqlite: ['sqlite_autoindex_users_1'], postgres: ['users_email_unique'] },
  },
];

/** The query plan as text, with sequential scans off on PostgreSQL (one connection, so the setting holds). */
async function plan(db: Kysely<Database>, query: string): Promise<string> {
  if (testDb === 'sqlite') {
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db);
    return rows.map((row) => row.detail).join('\n');
  }
  return db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection);
    try {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(query)}`.execute(connection);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(connection);
    }
  });
}

describe(`indexes of the lists and deletes on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it.each(lookups)('$what uses an index', async ({ query, index }) => {
    const text = await plan(t.database.db, query);
    expect(text).not.toMatch(/SCAN|Seq Scan/);
    // SQLite: "SEARCH gameVersions USING INDEX name (...)"; PostgreSQL: "Index Scan using name", or "Bitmap Index
    // Scan on name" (quoted when mixed case).
    const used =
      testDb === 'sqlite'
        ? /USING (?:COVERING )?INDEX (\w+)/.exec(text)?.[1]
        : /Index (?:Only )?Scan (?:using|on) "?(\w+)"?/.exec(text)?.[1];
    expect(index[testDb], text).toContain(used);
  });
});
