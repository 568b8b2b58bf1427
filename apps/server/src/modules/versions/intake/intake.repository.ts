import type { Kysely, Transaction } from 'kysely';
import { nowIso, toIso } from '../../../db/database';
import type { Database } from '../../../db/schema';
import type { GameFileRow } from '../../games/game-files.repository';
import type { VersionFileRow, VersionFlags, VersionsRepository } from '../versions.repository';

/**
 * What the intake knows of a version's file before it takes the artist's bytes (one statement): the game's file
 * and when the game's files last changed (the atlases' key), the version's sheet record and frames when it has
 * replaced frames in it, its current replacement, and how many history entries the file has.
 */
export interface IntakeState {
  original: GameFileRow;
  filesChangedAt: string | null;
  sheet: {
    revision: number;
    baseKey: string | null;
    baseSize: number | null;
    markedKey: string | null;
  } | null;
  /** The replaced frames, by name, with their stored keys. */
  frames: Map<string, string>;
  file: { id: number; storageKey: string; size: number } | null;
  historyEntries: number;
}

/** A frame upload composed before its transaction, landed if nothing changed since the state was read. */
export interface FrameLanding {
  versionId: number;
  state: IntakeState;
  frame: { frame: string; storageKey: string; width: number; height: number };
  /** The composed sheet, as the version file's content. */
  composed: Omit<VersionFileRow, 'id' | 'gameVersionId' | 'fileId' | 'createdAt' | 'updatedAt'>;
  marked: { key: string | null; from: string | null };
}

/** Why a composition made from an older state is not landed: the caller takes the two-phase way instead. */
export class IntakeStateMoved extends Error {}

/** The statements of the intake (decision 0055): its one read, and the one transaction that lands a frame. */
export class IntakeRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly versions: VersionsRepository,
  ) {}

  /** The state of a version's file (undefined: no such game file). */
  async stateOf(versionId: number, gameId: number, fileId: number): Promise<IntakeState | undefined> {
    return (await this.statesOf(versionId, gameId, [fileId])).get(fileId);
  }

  /** The states of several files of a version, by fileId, in one statement (a batch's group, decision 0060). */
  async statesOf(versionId: number, gameId: number, fileIds: number[]): Promise<Map<number, IntakeState>> {
    if (fileIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('gameFiles as g')
      .innerJoin('games', 'games.id', 'g.gameId')
      .leftJoin('versionSheets as s', (join) =>
        join.onRef('s.fileId', '=', 'g.fileId').on('s.gameVersionId', '=', versionId),
      )
      .leftJoin('versionFrames as fr', (join) =>
        join.onRef('fr.fileId', '=', 'g.fileId').on('fr.gameVersionId', '=', versionId),
      )
      .leftJoin('versionFiles as f', (join) =>
        join.onRef('f.fileId', '=', 'g.fileId').on('f.gameVersionId', '=', versionId),
      )
      .select([
        'g.id',
        'g.gameId',
        'g.fileId',
        'g.path',
        'g.isStartFile',
        'g.isSplash',
        'g.width',
        'g.height',
        'g.size',
        'g.contentType',
        'g.storageKey',
        'g.copiesKey',
        'g.copiesOf',
        'g.updatedAt',
        'games.filesChangedAt',
        's.revision',
        's.baseKey',
        's.baseSize',
        's.markedKey',
        'fr.frame',
        'fr.storageKey as frameKey',
        'f.id as fileRowId',
        'f.storageKey as fileKey',
        'f.size as fileSize',
      ])
      .select((eb) =>
        eb
          .selectFrom('versionFileHistory as h')
          .select(eb.fn.countAll<number>().as('n'))
          .where('h.versionId', '=', versionId)
          .whereRef('h.fileId', '=', 'g.fileId')
          .as('historyEntries'),
      )
      .where('g.gameId', '=', gameId)
      .where('g.fileId', 'in', fileIds)
      .execute();
    // One row per replaced frame of a file.
    const byFile = new Map<number, typeof rows>();
    for (const row of rows) byFile.set(row.fileId, [...(byFile.get(row.fileId) ?? []), row]);
    const toState = (ofFile: typeof rows): IntakeState => {
      const row = ofFile[0]!;
      const { filesChangedAt, revision, baseKey, baseSize, markedKey, fileRowId, fileKey, fileSize } = row;
      return {
        original: {
          id: row.id,
          gameId: row.gameId,
          fileId: row.fileId,
          path: row.path,
          isStartFile: row.isStartFile,
          isSplash: row.isSplash,
          width: row.width,
          height: row.height,
          size: row.size,
          contentType: row.contentType,
          storageKey: row.storageKey,
          copiesKey: row.copiesKey,
          copiesOf: row.copiesOf,
          updatedAt: row.updatedAt,
        },
        filesChangedAt: filesChangedAt === null ? null : toIso(filesChangedAt),
        sheet: revision === null ? null : { revision, baseKey, baseSize, markedKey },
        frames: new Map(
          ofFile.flatMap((each) => (each.frame === null ? [] : [[each.frame, each.frameKey!] as const])),
        ),
        file: fileRowId === null ? null : { id: fileRowId, storageKey: fileKey!, size: Number(fileSize) },
        historyEntries: Number(row.historyEntries ?? 0),
      };
    };
    return new Map([...byFile].map(([fileId, ofFile]) => [fileId, toState(ofFile)]));
  }

  /**
   * Lands a group of whole files of a batch (decision 0060) in one transaction with the version row locked: each as
   * the version's file (one upsert for all), and what `also` adds for the files landed (their history entries,
   * the notes they resolve). A file that has replaced frames by now (a sheet) is not landed here but answered in
   * `moved`, for the single upload, which draws them onto it. Undefined: the version is gone.
   */
  async landFiles(
    versionId: number,
    files: Omit<VersionFileRow, 'id' | 'gameVersionId' | 'createdAt' | 'updatedAt'>[],
    mayChange: (flags: VersionFlags) => void,
    also: (trx: Transaction<Database>, landed: number[]) => Promise<void>,
  ): Promise<{ previousKeys: string[]; moved: number[] } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.versions.lockVersion(trx, versionId, mayChange))) return undefined;
      const sheets = await trx
        .selectFrom('versionSheets')
        .select('fileId')
        .where('gameVersionId', '=', versionId)
        .where(
          'fileId',
          'in',
          files.map((file) => file.fileId),
        )
        .execute();
      const moved = new Set(sheets.map((sheet) => sheet.fileId));
      const landing = files.filter((file) => !moved.has(file.fileId));
      if (landing.length === 0) return { previousKeys: [], moved: [...moved] };
      const landed = landing.map((file) => file.fileId);
      // Read under the version's lock: every replacement of its files takes that lock first.
      const previous = await trx
        .selectFrom('versionFiles')
        .select('storageKey')
        .where('gameVersionId', '=', versionId)
        .where('fileId', 'in', landed)
        .execute();
      const now = nowIso();
      await trx
        .insertInto('versionFiles')
        .values(
          landing.map((file) => ({ ...file, gameVersionId: versionId, createdAt: now, updatedAt: now })),
        )
        .onConflict((conflict) =>
          conflict.columns(['gameVersionId', 'fileId']).doUpdateSet((eb) => ({
            path: eb.ref('excluded.path'),
            width: eb.ref('excluded.width'),
            height: eb.ref('excluded.height'),
            size: eb.ref('excluded.size'),
            contentType: eb.ref('excluded.contentType'),
            storageKey: eb.ref('excluded.storageKey'),
            updatedAt: eb.ref('excluded.updatedAt'),
          })),
        )
        .execute();
      await also(trx, landed);
      return { previousKeys: previous.map((row) => row.storageKey), moved: [...moved] };
    });
  }

  /**
   * Lands a frame upload in one transaction with the version row locked: the frame, the sheet's record (its
   * revision and composed revision one on), the composed sheet as the version file, and what `also` adds (the
   * history entry, the notes it resolves). Each statement is conditional on the state the composition was made
   * from: when another change came first, IntakeStateMoved rolls it all back. Undefined: the version is gone.
   */
  async landFrame(
    landing: FrameLanding,
    mayChange: (flags: VersionFlags) => void,
    also: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<VersionFileRow | undefined> {
    const { versionId, state, frame, composed, marked } = landing;
    const fileId = state.original.fileId;
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.versions.lockVersion(trx, versionId, mayChange))) return undefined;
      const now = nowIso();
      const ofSheet = { gameVersionId: versionId, fileId };
      if (state.sheet) {
        const moved = await trx
          .updateTable('versionSheets')
          .set({
            revision: state.sheet.revision + 1,
            composedRevision: state.sheet.revision + 1,
            markedKey: marked.key,
            markedFrom: marked.from,
          })
          .where('gameVersionId', '=', versionId)
          .where('fileId', '=', fileId)
          .where('revision', '=', state.sheet.revision)
          // Drawn on the copies the game file has now (Gen. may have made them again meanwhile).
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('gameFiles')
                .select('gameFiles.id')
                .where('gameFiles.id', '=', state.original.id)
                .where(
                  'gameFiles.copiesKey',
                  state.original.copiesKey === null ? 'is' : '=',
                  state.original.copiesKey,
                ),
            ),
          )
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw new IntakeStateMoved();
      } else {
        const started = await trx
          .insertInto('versionSheets')
          .values({
            ...ofSheet,
            revision: 1,
            composedRevision: 1,
            baseKey: state.file?.storageKey ?? null,
            baseSize: state.file?.size ?? null,
            markedKey: marked.key,
            markedFrom: marked.from,
          })
          .onConflict((conflict) => conflict.columns(['gameVersionId', 'fileId']).doNothing())
          .executeTakeFirst();
        if (Number(started.numInsertedOrUpdatedRows ?? 0) === 0) throw new IntakeStateMoved();
      }
      if (state.frames.has(frame.frame)) {
        await trx
          .updateTable('versionFrames')
          .set({ storageKey: frame.storageKey, width: frame.width, height: frame.height, updatedAt: now })
          .where('gameVersionId', '=', versionId)
          .where('fileId', '=', fileId)
          .where('frame', '=', frame.frame)
          .execute();
      } else {
        await trx
          .insertInto('versionFrames')
          .values({ ...ofSheet, ...frame, createdAt: now, updatedAt: now })
          .execute();
      }
      const saved = state.file
        ? await trx
            .updateTable('versionFiles')
            .set({ ...composed, updatedAt: now })
            .where('id', '=', state.file.id)
            .where('storageKey', '=', state.file.storageKey)
            .returningAll()
            .executeTakeFirst()
        : await trx
            .insertInto('versionFiles')
            .values({ ...ofSheet, ...composed, createdAt: now, updatedAt: now })
            .onConflict((conflict) => conflict.columns(['gameVersionId', 'fileId']).doNothing())
            .returningAll()
            .executeTakeFirst();
      if (!saved) throw new IntakeStateMoved();
      await also(trx);
      return saved;
    });
  }
}
