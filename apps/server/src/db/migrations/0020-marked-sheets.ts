import type { Kysely } from 'kysely';

/**
 * A version's composed sheet in a second rendition (decision 0049): its frames on the game's watermarked copy of
 * the sheet, which the version view serves to whoever may not see originals. `markedKey` is that rendition's
 * object (null: none yet, or none needed since the base is the artist's own upload); `markedFrom` the game file's
 * `copiesKey` it was drawn on, so a rendition made from copies that Gen. has since replaced is known as stale.
 * Existing sheets get theirs at the next start (SheetComposer.recomposeBehind); until then artists see a blank.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('versionSheets').addColumn('markedKey', 'text').execute();
  await db.schema.alterTable('versionSheets').addColumn('markedFrom', 'text').execute();
}
