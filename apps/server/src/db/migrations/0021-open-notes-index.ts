import { sql, type Kysely } from 'kysely';

/**
 * The open first notes of each version, by author (decision 0054): every version answer counts its open notes, and
 * My Games those of all of an artist's versions and, apart, the artist's own questions. With only the version and
 * replyTo indexes, SQLite without statistics counted through the replyTo index: every first note of the database,
 * for each assignment (300-450 ms a My Games request at 40,000 notes). A partial index holds only open first notes,
 * so a count reads just those of the version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('notes_open_index')
    .on('notes')
    // replyTo and resolvedAt (always null here) as columns too: a count then matches every column it names, so even
    // without statistics SQLite prefers this index to the replyTo one.
    .columns(['versionId', 'replyTo', 'resolvedAt', 'authorId'])
    .where(sql.ref('replyTo'), 'is', null)
    .where(sql.ref('resolvedAt'), 'is', null)
    .execute();
}
