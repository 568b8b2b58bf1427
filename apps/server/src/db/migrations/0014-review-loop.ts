import type { Kysely, CreateTableBuilder } from 'kysely';

/**
 * The review loop (decision 0032). A version's verdict: `verdict` ('approved' | 'changes_requested'), its
 * optional note, when and by whom (null when the reviewer's account is deleted); a new finish clears them, so a
 * verdict is always one given since the version's last finish. `notes`: notes on a version as a whole (`fileId`
 * null), on one of its game's files (`fileId`: the game file's public id) or on an atlas frame of it; `replyTo` the
 * note it answers; open until `resolvedAt` is set by a person (`resolvedHow` 'marked'), an answer of the artist
 * ('answered') or the artist's replacement of its file ('replaced'). Notes go with their version, their author,
 * and the note they answer.
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema.alterTable('gameVersions').addColumn('verdict', 'varchar(30)').execute();
  await db.schema.alterTable('gameVersions').addColumn('verdictNote', 'text').execute();
  await db.schema.alterTable('gameVersions').addColumn('verdictAt', timestamp).execute();
  await db.schema
    .alterTable('gameVersions')
    .addColumn('verdictBy', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // "To review": the Finished versions without a verdict, oldest finish first.
  await db.schema
    .createIndex('gameVersions_review_index')
    .on('gameVersions')
    .columns(['gameVersionStatusId', 'finishedAt'])
    .execute();

  const withId = (table: CreateTableBuilder<string, never>): CreateTableBuilder<string, 'id'> =>
    dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId(db.schema.createTable('notes'))
    .addColumn('versionId', 'integer', (c) => c.notNull().references('gameVersions.id').onDelete('cascade'))
    .addColumn('fileId', 'integer')
    .addColumn('frame', 'varchar(500)')
    .addColumn('replyTo', 'integer', (c) => c.references('notes.id').onDelete('cascade'))
    .addColumn('authorId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('resolvedAt', timestamp)
    .addColumn('resolvedBy', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolvedHow', 'varchar(20)')
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .execute();
  // A version's notes (its list, its open count, a file's notes when a replacement resolves them).
  await db.schema.createIndex('notes_version_index').on('notes').columns(['versionId', 'fileId']).execute();
  await db.schema.createIndex('notes_replyTo_index').on('notes').column('replyTo').execute();
}
