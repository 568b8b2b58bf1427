import type { Kysely } from 'kysely';

/**
 * Uniform grids declared on game images (decision 0028 "Grids"): for games that slice a sheet in code,
 * an admin or the game's artist says the frame size, the margin around the frames and the spacing between them.
 * One grid per image; a grid goes with its file (and so with its game).
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('atlasGrids')
    .addColumn('gameId', 'integer', (c) => c.notNull())
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('frameWidth', 'integer', (c) => c.notNull())
    .addColumn('frameHeight', 'integer', (c) => c.notNull())
    .addColumn('margin', 'integer', (c) => c.notNull())
    .addColumn('spacing', 'integer', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('atlasGrids_pk', ['gameId', 'fileId'])
    .addForeignKeyConstraint(
      'atlasGrids_file_fk',
      ['gameId', 'fileId'],
      'gameFiles',
      ['gameId', 'fileId'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
}
