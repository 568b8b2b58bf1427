import { sql, type Kysely } from 'kysely';

/**
 * One assignment per user, game and job type (decision 0026): a unique index on userGames (userId,
 * gameId, userGameTypeId), so two concurrent identical assignments cannot both be stored (the service answers the
 * loser 409). A database that already holds such twins keeps them (each may have its artist's versions; merging
 * them is the admin's call, not a migration's): the index then covers only the rows added after the newest twin
 * (a partial index, `where id > N`), and the service's check refuses a new twin of an older row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const twins = await sql<{ newest: number | string | null }>`
    select max(${sql.ref('later.id')}) as newest from ${sql.table('userGames')} as later
    where exists (select 1 from ${sql.table('userGames')} as earlier
      where ${sql.ref('earlier.userId')} = ${sql.ref('later.userId')} and ${sql.ref('earlier.gameId')} = ${sql.ref('later.gameId')}
        and ${sql.ref('earlier.userGameTypeId')} = ${sql.ref('later.userGameTypeId')} and ${sql.ref('earlier.id')} < ${sql.ref('later.id')})`.execute(
    db,
  );
  const newestTwin = twins.rows[0]?.newest;
  let index = db.schema
    .createIndex('userGames_assignment_unique')
    .on('userGames')
    .unique()
    .columns(['userId', 'gameId', 'userGameTypeId']);
  if (newestTwin !== null && newestTwin !== undefined)
    index = index.where(sql<boolean>`${sql.ref('id')} > ${sql.lit(Number(newestTwin))}`);
  await index.execute();
}
