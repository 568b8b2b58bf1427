import type { Kysely } from 'kysely';

/**
 * A version's replaced atlas frames (decision 0028). `versionFrames` keeps each frame replacement as the
 * artist uploaded it (the frame's full source size), so any frame can be restored or replaced again;
 * `versionSheets` keeps, per sheet a version has frames in, the revision of its frame set (each frame change adds
 * one), the revision the stored composed sheet (the version's versionFiles row of the sheet) was made from, and
 * the artist's whole-sheet upload the frames are drawn onto (null: the game's original sheet). Rows go with their
 * version.
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('versionSheets')
    .addColumn('gameVersionId', 'integer', (c) =>
      c.notNull().references('gameVersions.id').onDelete('cascade'),
    )
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('composedRevision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('baseKey', 'text')
    .addColumn('baseSize', 'integer')
    .addPrimaryKeyConstraint('versionSheets_pk', ['gameVersionId', 'fileId'])
    .execute();
  await db.schema
    .createTable('versionFrames')
    .addColumn('gameVersionId', 'integer', (c) =>
      c.notNull().references('gameVersions.id').onDelete('cascade'),
    )
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('frame', 'text', (c) => c.notNull())
    .addColumn('storageKey', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('versionFrames_pk', ['gameVersionId', 'fileId', 'frame'])
    .execute();
}
