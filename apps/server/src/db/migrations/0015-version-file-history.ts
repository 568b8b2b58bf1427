import type { Kysely, CreateTableBuilder } from 'kysely';

/**
 * The history of a version's files (decision 0034): one row per replacement a version's file got (an
 * upload, a batch row, a sheet composed after a frame change, a restore), each with a stored copy of its own
 * (`storageKey`, under `history/`), so deleting or replacing a version file never deletes a history object.
 * `fileKey` is the key of the version file the entry copies: the entry whose fileKey is the version file's
 * storageKey now is the current one. Kept up to VERSION_HISTORY_LIMIT per version and file, oldest dropped first.
 * Rows go with their version; an author's delete keeps the entry without its author.
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  const withId = (table: CreateTableBuilder<string, never>): CreateTableBuilder<string, 'id'> =>
    dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId(db.schema.createTable('versionFileHistory'))
    .addColumn('versionId', 'integer', (c) => c.notNull().references('gameVersions.id').onDelete('cascade'))
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('storageKey', 'text', (c) => c.notNull())
    .addColumn('fileKey', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('contentType', 'varchar(200)', (c) => c.notNull())
    .addColumn('authorId', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('how', 'varchar(20)', (c) => c.notNull())
    .addColumn('restoredFrom', 'integer')
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('versionFileHistory_file')
    .on('versionFileHistory')
    .columns(['versionId', 'fileId', 'id'])
    .execute();
}
