import type { Kysely, CreateTableBuilder } from 'kysely';

/**
 * The inbox: one row per event and recipient, so read state is per user (`readAt`). Events: a game
 * assigned to you, a version finished (to admins), a verdict or a note on your version, a note answered. The
 * ids say which screen the event links to; `text` is a short summary (a note's beginning, a verdict's name).
 * `mailState` is the mail side's (null: not yet considered for mail; 'sent', 'digest', 'skipped'), so mail of an
 * event is decided once, by whichever server claims it. Rows go with their user; the ids they name may outlive
 * nothing: a link to a deleted object lands on a 404 screen like any stale link.
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  const withId = (table: CreateTableBuilder<string, never>): CreateTableBuilder<string, 'id'> =>
    dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId(db.schema.createTable('inboxEvents'))
    .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('actorId', 'integer')
    .addColumn('gameId', 'integer')
    .addColumn('userGameId', 'integer')
    .addColumn('versionId', 'integer')
    .addColumn('fileId', 'integer')
    .addColumn('noteId', 'integer')
    .addColumn('text', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('readAt', timestamp)
    .addColumn('mailState', 'varchar(20)')
    .execute();
  await db.schema.createIndex('inboxEvents_user').on('inboxEvents').columns(['userId', 'id']).execute();
  await db.schema.createIndex('inboxEvents_mail').on('inboxEvents').columns(['mailState', 'id']).execute();
}
