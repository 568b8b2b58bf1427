import type { Kysely, Selectable, Transaction } from 'kysely';
import { nowIso } from '../../../db/database';
import type { Database, VersionFilesTable, VersionFramesTable, VersionSheetsTable } from '../../../db/schema';
import type { VersionFlags, VersionsRepository } from '../versions.repository';

export type VersionFrameRow = Selectable<VersionFramesTable>;
export type VersionSheetRow = Selectable<VersionSheetsTable>;
/** A composed sheet's marked rendition (decision 0049): its key and the copiesKey it was drawn on; nulls: none. */
export interface MarkedRendition {
  key: string | null;
  from: string | null;
}
type VersionFileContent = Omit<
  Selectable<VersionFilesTable>,
  'id' | 'gameVersionId' | 'fileId' | 'createdAt' | 'updatedAt'
>;

/**
 * A version's replaced frames and the sheets they are composed into (decision 0028). Every change of a
 * sheet's frames happens with the version row locked (VersionsRepository.lockVersion, as uploads do) and adds one
 * to the sheet's revision; a composition records its sheet only if made from a newer revision than the one
 * stored (`landComposed`), so of compositions running at once (on several servers) the newest lands, whatever
 * the order they finish in, and no composition holds a lock while it works.
 */
export class VersionSheetsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly versions: VersionsRepository,
  ) {}

  /**
   * Records a frame's replacement and answers the key of the one it replaced (null: none), or undefined when the
   * version is gone. A sheet's first frame starts its record, with the version's whole-sheet upload (if any) as
   * the base the frames are drawn onto.
   */
  async recordFrame(
    row: Omit<VersionFrameRow, 'createdAt' | 'updatedAt'>,
    mayChange: (flags: VersionFlags) => void,
  ): Promise<string | null | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.versions.lockVersion(trx, row.gameVersionId, mayChange))) return undefined;
      await this.nextRevision(trx, row.gameVersionId, row.fileId);
      const now = nowIso();
      const existing = await this.frame(trx, row.gameVersionId, row.fileId, row.frame);
      if (existing) {
        await trx
          .updateTable('versionFrames')
          .set({ storageKey: row.storageKey, width: row.width, height: row.height, updatedAt: now })
          .where('gameVersionId', '=', row.gameVersionId)
          .where('fileId', '=', row.fileId)
          .where('frame', '=', row.frame)
          .execute();
        return existing.storageKey;
      }
      await trx
        .insertInto('versionFrames')
        .values({ ...row, createdAt: now, updatedAt: now })
        .execute();
      return null;
    });
  }

  /**
   * Removes a frame's replacement. Answers undefined when the version or the frame is not there; else the
   * frame's key, and when it was the sheet's last frame the version file's state to go back to: its whole-sheet
   * upload (`base`), or none (the composed sheet's row is removed: `removedKey`); its marked rendition goes too
   * (`markedKey`, decision 0049).
   */
  async removeFrame(
    versionId: number,
    fileId: number,
    frame: string,
    mayChange: (flags: VersionFlags) => void,
  ): Promise<
    { frameKey: string; last: boolean; removedKey: string | null; markedKey: string | null } | undefined
  > {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.versions.lockVersion(trx, versionId, mayChange))) return undefined;
      const existing = await this.frame(trx, versionId, fileId, frame);
      if (!existing) return undefined;
      await trx
        .deleteFrom('versionFrames')
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .where('frame', '=', frame)
        .execute();
      const { remaining } = await trx
        .selectFrom('versionFrames')
        .select((eb) => eb.fn.countAll<number>().as('remaining'))
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .executeTakeFirstOrThrow();
      if (Number(remaining) > 0) {
        await this.nextRevision(trx, versionId, fileId);
        return { frameKey: existing.storageKey, last: false, removedKey: null, markedKey: null };
      }
      // The last frame: the version's file of the sheet is its whole-sheet upload again, or none.
      const sheet = await this.sheet(trx, versionId, fileId);
      await trx
        .deleteFrom('versionSheets')
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .execute();
      const file = await this.versions.findFile(versionId, fileId, trx);
      let removedKey: string | null = null;
      if (file && sheet?.baseKey && sheet.baseSize !== null) {
        await trx
          .updateTable('versionFiles')
          .set({ storageKey: sheet.baseKey, size: sheet.baseSize, updatedAt: nowIso() })
          .where('id', '=', file.id)
          .execute();
        removedKey = file.storageKey === sheet.baseKey ? null : file.storageKey;
      } else if (file) {
        await trx.deleteFrom('versionFiles').where('id', '=', file.id).execute();
        removedKey = file.storageKey;
      }
      return { frameKey: existing.storageKey, last: true, removedKey, markedKey: sheet?.markedKey ?? null };
    });
  }

  /**
   * A whole-sheet upload to a sheet with replaced frames: it becomes the base the frames are drawn onto (the
   * frames stay). Answers the previous base's key (null: the original), or undefined when the sheet has no frames
   * (an ordinary replacement then) or the version is gone.
   */
  async replaceBase(
    versionId: number,
    fileId: number,
    base: { key: string; size: number },
    mayChange: (flags: VersionFlags) => void,
  ): Promise<string | null | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.versions.lockVersion(trx, versionId, mayChange))) return undefined;
      const sheet = await this.sheet(trx, versionId, fileId);
      if (!sheet) return undefined;
      await trx
        .updateTable('versionSheets')
        .set({ baseKey: base.key, baseSize: base.size, revision: sheet.revision + 1 })
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .execute();
      return sheet.baseKey;
    });
  }

  /** The stored key of the version's file of the sheet now (its composition, or the whole-sheet upload), if any. */
  async fileKey(versionId: number, fileId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('versionFiles')
      .select('storageKey')
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
    return row?.storageKey ?? null;
  }

  /** What a composition is made from: the sheet's revision, its base, and its frames, read together. */
  async compositionInputs(
    versionId: number,
    fileId: number,
  ): Promise<{ sheet: VersionSheetRow; frames: VersionFrameRow[] } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const sheet = await this.sheet(trx, versionId, fileId);
      if (!sheet) return undefined;
      const frames = await trx
        .selectFrom('versionFrames')
        .selectAll()
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .orderBy('frame')
        .execute();
      return { sheet, frames };
    });
  }

  /**
   * Records a composed sheet as the version's file of the sheet, with its marked rendition (decision 0049; null:
   * none), if it was made from a newer revision than the one recorded. Answers the keys it replaced (to delete:
   * the previous composition unless it is the base, and the previous marked rendition), or 'stale' when a
   * composition of the same or a newer revision landed first (or the sheet no longer has frames).
   */
  async landComposed(
    versionId: number,
    fileId: number,
    revision: number,
    content: VersionFileContent,
    marked: MarkedRendition,
    /** Runs in the same transaction when the composition lands: the sheet's history entry (decision 0034). */
    also?: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<{ replaced: string[] } | 'stale'> {
    return this.db.transaction().execute(async (trx) => {
      // The composed sheet lands whatever the version's flags now: its frames were recorded while it could change.
      if (!(await this.versions.lockVersion(trx, versionId, () => undefined))) return 'stale';
      const sheet = await this.sheet(trx, versionId, fileId);
      if (!sheet || sheet.composedRevision >= revision) return 'stale';
      await trx
        .updateTable('versionSheets')
        .set({ composedRevision: revision, markedKey: marked.key, markedFrom: marked.from })
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .execute();
      const replaced = sheet.markedKey !== null && sheet.markedKey !== marked.key ? [sheet.markedKey] : [];
      const now = nowIso();
      const existing = await this.versions.findFile(versionId, fileId, trx);
      if (existing) {
        await trx
          .updateTable('versionFiles')
          .set({ ...content, updatedAt: now })
          .where('id', '=', existing.id)
          .execute();
        await also?.(trx);
        return {
          replaced: existing.storageKey === sheet.baseKey ? replaced : [existing.storageKey, ...replaced],
        };
      }
      await trx
        .insertInto('versionFiles')
        .values({ ...content, gameVersionId: versionId, fileId, createdAt: now, updatedAt: now })
        .execute();
      await also?.(trx);
      return { replaced };
    });
  }

  /**
   * Records a sheet's marked rendition made again (the game's copies changed since the last one, decision 0049),
   * only if the sheet still has the composition (`revision`) and the marked rendition (`previous`) it was made
   * for. Answers the key it replaced (null: none), or 'stale'.
   */
  async landMarked(
    versionId: number,
    fileId: number,
    revision: number,
    previous: string | null,
    marked: MarkedRendition,
  ): Promise<{ replaced: string | null } | 'stale'> {
    return this.db.transaction().execute(async (trx) => {
      // Locked like every change of the sheet, so a composition landing at once sees this rendition to replace.
      if (!(await this.versions.lockVersion(trx, versionId, () => undefined))) return 'stale';
      const sheet = await this.sheet(trx, versionId, fileId);
      if (
        !sheet ||
        sheet.composedRevision !== revision ||
        sheet.baseKey !== null ||
        sheet.markedKey !== previous
      )
        return 'stale';
      await trx
        .updateTable('versionSheets')
        .set({ markedKey: marked.key, markedFrom: marked.from })
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .execute();
      return { replaced: previous };
    });
  }

  /**
   * Sheets whose marked rendition was not drawn on their game file's current watermarked copy (decision 0049): Gen.
   * made the copies again, a composition ran while they were being made, or the sheet predates marked renditions.
   * Only sheets whose base is the original and whose newest composition landed (one still to land makes its own).
   * Of one game file, or of every game.
   */
  async markedBehind(of?: {
    gameId: number;
    fileId: number;
  }): Promise<{ versionId: number; gameId: number; fileId: number }[]> {
    let query = this.db
      .selectFrom('versionSheets')
      .innerJoin('gameVersions', 'gameVersions.id', 'versionSheets.gameVersionId')
      .innerJoin('gameFiles', (join) =>
        join
          .onRef('gameFiles.gameId', '=', 'gameVersions.gameId')
          .onRef('gameFiles.fileId', '=', 'versionSheets.fileId'),
      )
      .select(['versionSheets.gameVersionId as versionId', 'gameVersions.gameId', 'versionSheets.fileId'])
      .where('versionSheets.baseKey', 'is', null)
      .where('versionSheets.composedRevision', '>', 0)
      .whereRef('versionSheets.composedRevision', '=', 'versionSheets.revision')
      .where('gameFiles.copiesKey', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('versionSheets.markedFrom', 'is', null),
          eb('versionSheets.markedFrom', '<>', eb.ref('gameFiles.copiesKey')),
        ]),
      );
    if (of)
      query = query
        .where('gameVersions.gameId', '=', of.gameId)
        .where('versionSheets.fileId', '=', of.fileId);
    return query.orderBy('versionSheets.gameVersionId').orderBy('versionSheets.fileId').execute();
  }

  /**
   * What the version view serves of a sheet to whoever may not see originals (decision 0049): undefined when the
   * version has no frames in it (its file, if any, is the artist's own upload); else the marked rendition's key,
   * or, with a base of the artist's own, the composition itself (`own`).
   */
  async renditionOf(
    versionId: number,
    fileId: number,
  ): Promise<{ own: true } | { own: false; markedKey: string | null } | undefined> {
    const sheet = await this.db
      .selectFrom('versionSheets')
      .select(['baseKey', 'markedKey'])
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
    if (!sheet) return undefined;
    return sheet.baseKey !== null ? { own: true } : { own: false, markedKey: sheet.markedKey };
  }

  /**
   * "Restore original" of a sheet: its frames and record go too. Answers their keys, the base's and the marked
   * rendition's, to delete
   * after the commit; call inside the transaction that removes the version file.
   */
  async dropSheet(trx: Transaction<Database>, versionId: number, fileId: number): Promise<string[]> {
    const sheet = await this.sheet(trx, versionId, fileId);
    if (!sheet) return [];
    const frames = await trx
      .selectFrom('versionFrames')
      .select('storageKey')
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .execute();
    await trx
      .deleteFrom('versionFrames')
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .execute();
    await trx
      .deleteFrom('versionSheets')
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .execute();
    return [
      ...frames.map((frame) => frame.storageKey),
      ...(sheet.baseKey ? [sheet.baseKey] : []),
      ...(sheet.markedKey ? [sheet.markedKey] : []),
    ];
  }

  /**
   * Sheets whose last change has no composition that landed (revision ahead of composedRevision): a server stopped
   * between the change and its composition (a crash, kill -9). With their version's game, oldest version first.
   */
  async sheetsBehind(): Promise<{ versionId: number; gameId: number; fileId: number }[]> {
    return this.db
      .selectFrom('versionSheets')
      .innerJoin('gameVersions', 'gameVersions.id', 'versionSheets.gameVersionId')
      .select(['versionSheets.gameVersionId as versionId', 'gameVersions.gameId', 'versionSheets.fileId'])
      .whereRef('versionSheets.composedRevision', '<', 'versionSheets.revision')
      .orderBy('versionSheets.gameVersionId')
      .orderBy('versionSheets.fileId')
      .execute();
  }

  /**
   * A version's marked renditions (decision 0049) per game file, for its sheets whose base is the original (null:
   * not drawn yet).
   */
  async markedKeysOf(versionId: number): Promise<Map<number, string | null>> {
    const rows = await this.db
      .selectFrom('versionSheets')
      .select(['fileId', 'markedKey'])
      .where('gameVersionId', '=', versionId)
      .where('baseKey', 'is', null)
      .execute();
    return new Map(rows.map((row) => [row.fileId, row.markedKey]));
  }

  /** The names of a version's replaced frames, per game file. */
  async framesOf(versionId: number): Promise<Map<number, string[]>> {
    const rows = await this.db
      .selectFrom('versionFrames')
      .select(['fileId', 'frame'])
      .where('gameVersionId', '=', versionId)
      .orderBy('frame')
      .execute();
    const byFile = new Map<number, string[]>();
    for (const row of rows) byFile.set(row.fileId, [...(byFile.get(row.fileId) ?? []), row.frame]);
    return byFile;
  }

  /** Whether a version has replaced frames in a sheet. */
  async hasSheet(versionId: number, fileId: number): Promise<boolean> {
    return (await this.sheet(this.db, versionId, fileId)) !== undefined;
  }

  private sheet(
    db: Kysely<Database> | Transaction<Database>,
    versionId: number,
    fileId: number,
  ): Promise<VersionSheetRow | undefined> {
    return db
      .selectFrom('versionSheets')
      .selectAll()
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
  }

  private frame(
    trx: Transaction<Database>,
    versionId: number,
    fileId: number,
    frame: string,
  ): Promise<VersionFrameRow | undefined> {
    return trx
      .selectFrom('versionFrames')
      .selectAll()
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .where('frame', '=', frame)
      .executeTakeFirst();
  }

  /** Adds one to a sheet's revision, starting its record (with the version's whole-sheet upload as base) if new. */
  private async nextRevision(trx: Transaction<Database>, versionId: number, fileId: number): Promise<void> {
    const sheet = await this.sheet(trx, versionId, fileId);
    if (sheet) {
      await trx
        .updateTable('versionSheets')
        .set({ revision: sheet.revision + 1 })
        .where('gameVersionId', '=', versionId)
        .where('fileId', '=', fileId)
        .execute();
      return;
    }
    const upload = await this.versions.findFile(versionId, fileId, trx);
    await trx
      .insertInto('versionSheets')
      .values({
        gameVersionId: versionId,
        fileId,
        revision: 1,
        composedRevision: 0,
        baseKey: upload?.storageKey ?? null,
        baseSize: upload?.size ?? null,
        markedKey: null,
        markedFrom: null,
      })
      .execute();
  }
}
