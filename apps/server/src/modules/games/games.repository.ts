import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  GameStatus,
  effectiveIsolated,
  indexExtensions,
  effectivePrecompressed,
  isolatedSettings,
  precompressedModes,
  precompressedSettings,
  type Game,
  type GameFile,
  type IsolatedSetting,
  type PrecompressedMode,
  type PrecompressedSetting,
} from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, GameFilesTable, GamesTable, Timestamp } from '../../db/schema';
import type { CompiledFilter, ComputedColumn, SearchableEntity } from '../../search/filter';
import type { PlayDetection } from './play-detection';
import { listPage, type Page } from '../../search/page';

/** The game columns a search query may name (POST /games/filter). */
export const searchableGame: SearchableEntity = {
  table: 'games',
  columns: {
    id: 'number',
    name: 'string',
    description: 'string',
    width: 'number',
    height: 'number',
    gameStatusTypeId: 'number',
    isActive: 'boolean',
    // The list shows a generation's progress ("Generating 12/200").
    generationDone: 'number',
    generationTotal: 'number',
    engine: 'string',
    // The play settings: the list can tell which games are served isolated.
    precompressed: 'string',
    precompressedDecided: 'string',
    isolated: 'string',
    isolatedDecided: 'boolean',
    createdAt: 'date',
    updatedAt: 'date',
  },
};

/**
 * A file's play usage record (migration 0008, decision 0023) as columns the files screen sorts and filters by:
 * `loads` (0 for a file never loaded) and `atStart` (loaded within the first seconds of a play). They are not
 * in the answer's rows; GET /games/{id}/usage shows them.
 */
function gameFileUsageColumns(): Record<string, ComputedColumn> {
  const ofFile = sql`${sql.ref('fileUsage.gameId')} = ${sql.ref('gameFiles.gameId')} and ${sql.ref('fileUsage.fileId')} = ${sql.ref('gameFiles.fileId')}`;
  return {
    loads: {
      type: 'number',
      expression: sql`coalesce((select ${sql.ref('fileUsage.loads')} from ${sql.table('fileUsage')} where ${ofFile}), 0)`,
    },
    atStart: {
      type: 'boolean',
      expression: sql`(case when exists (select 1 from ${sql.table('fileUsage')} where ${ofFile} and ${sql.ref('fileUsage.startLoads')} > 0) then 1 else 0 end)`,
    },
  };
}

/** The columns of a game's file that a search query may name (POST /games/{id}/files/filter): those the API shows. */
export const searchableGameFile: SearchableEntity = {
  table: 'gameFiles',
  columns: {
    id: 'number',
    fileId: 'number',
    path: 'string',
    isStartFile: 'boolean',
    isSplash: 'boolean',
    width: 'number',
    height: 'number',
    size: 'number',
    contentType: 'string',
    updatedAt: 'date',
  },
  computed: gameFileUsageColumns(),
};

const gameColumns = [
  'id',
  'name',
  'description',
  'width',
  'height',
  'gameStatusTypeId',
  'statusReason',
  'isActive',
  'imagePath',
  'rootPath',
  'generationDone',
  'generationTotal',
  'engine',
  'precompressed',
  'precompressedDecided',
  'precompressedReason',
  'isolated',
  'isolatedDecided',
  'isolatedReason',
  'createdAt',
  'updatedAt',
] as const;

const gameFileColumns = [
  'id',
  'gameId',
  'fileId',
  'path',
  'isStartFile',
  'isSplash',
  'width',
  'height',
  'size',
  'contentType',
  'storageKey',
  'copiesKey',
  'copiesOf',
  'updatedAt',
] as const;

type GameRow = Pick<Selectable<GamesTable>, (typeof gameColumns)[number]>;
export type GameFileRow = Pick<Selectable<GameFilesTable>, (typeof gameFileColumns)[number]>;

/** What a card's picture needs of a game's splash file (its previews). */
export type SplashFile = Pick<GameFileRow, 'path' | 'width' | 'storageKey' | 'copiesKey'>;

/** A stored value of a closed set, or its fallback (a row written by hand with anything else). */
function oneOf<T extends string>(values: readonly T[], value: string, fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

function toGame(row: GameRow): Game {
  return {
    ...row,
    isActive: row.isActive === 1,
    precompressed: oneOf(precompressedSettings, row.precompressed, 'auto'),
    precompressedDecided: oneOf(precompressedModes, row.precompressedDecided, 'encoded'),
    isolated: oneOf(isolatedSettings, row.isolated, 'auto'),
    isolatedDecided: row.isolatedDecided === 1,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** A stored game file as the API shows it (the storage keys stay inside the server). */
export function toGameFile(row: GameFileRow): GameFile {
  const { storageKey: _storageKey, copiesKey: _copiesKey, copiesOf: _copiesOf, ...rest } = row;
  return {
    ...rest,
    isStartFile: row.isStartFile === 1,
    isSplash: row.isSplash === 1,
    updatedAt: toIso(row.updatedAt),
  };
}

type Executor = Kysely<Database> | Transaction<Database>;

/** How many of a game's images have current copies, of its images in all (decision 0024). */
export interface CopiesProgress {
  copiesCurrent: number;
  copiesTotal: number;
}

/** A game with its copies' progress (a game without images has none to make: 0 of 0). */
function withCopies(game: Game, copies: CopiesProgress | undefined): Game {
  return { ...game, ...(copies ?? { copiesCurrent: 0, copiesTotal: 0 }) };
}

function detectionColumns(detection: PlayDetection) {
  return {
    precompressedDecided: detection.precompressedDecided,
    precompressedReason: detection.precompressedReason,
    isolatedDecided: detection.isolatedDecided ? (1 as const) : (0 as const),
    isolatedReason: detection.isolatedReason,
  };
}

export class GamesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async list(filter: CompiledFilter): Promise<Page<Game>> {
    const page = await listPage(this.db.selectFrom('games').select(gameColumns), filter);
    const copies = await this.copiesProgress(page.rows.map((row) => row.id));
    return { ...page, rows: page.rows.map((row) => withCopies(toGame(row), copies.get(row.id))) };
  }

  async findById(id: number, db: Executor = this.db): Promise<Game | undefined> {
    const row = await db.selectFrom('games').select(gameColumns).where('id', '=', id).executeTakeFirst();
    return row && withCopies(toGame(row), (await this.copiesProgress([id], db)).get(id));
  }

  /**
   * Per game, its images whose copies are current (made from the file's content as it is now) and its images in
   * all (decision 0024): one aggregate query for a page of games. A game without images is left out.
   */
  async copiesProgress(gameIds: number[], db: Executor = this.db): Promise<Map<number, CopiesProgress>> {
    if (gameIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('gameFiles')
      .select((eb) => [
        'gameId',
        eb.fn.countAll<number>().as('total'),
        eb.fn
          .sum<number>(eb.case().when('copiesOf', '=', eb.ref('storageKey')).then(1).else(0).end())
          .as('current'),
      ])
      .where('gameId', 'in', gameIds)
      .where('width', 'is not', null)
      .groupBy('gameId')
      .execute();
    return new Map(
      rows.map((row) => [row.gameId, { copiesCurrent: Number(row.current), copiesTotal: Number(row.total) }]),
    );
  }

  /**
   * The images of a game whose copies are not current (none yet, or made from a replaced content): what an
   * incremental generation makes (decision 0024), in fileId order.
   */
  async pendingCopies(gameId: number): Promise<GameFileRow[]> {
    return this.db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .where('width', 'is not', null)
      .where((eb) => eb.or([eb('copiesOf', 'is', null), eb('copiesOf', '<>', eb.ref('storageKey'))]))
      .orderBy('fileId')
      .execute();
  }

  /** Ready games with an image whose copies are not current (an incremental generation is owed to each). */
  async readyGamesWithPendingCopies(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('games')
      .select('id')
      .where('gameStatusTypeId', '=', GameStatus.Ready)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('gameFiles')
            .select('gameFiles.id')
            .whereRef('gameFiles.gameId', '=', 'games.id')
            .where('gameFiles.width', 'is not', null)
            .where((inner) =>
              inner.or([
                inner('gameFiles.copiesOf', 'is', null),
                inner('gameFiles.copiesOf', '<>', inner.ref('gameFiles.storageKey')),
              ]),
            ),
        ),
      )
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Records that copies of the content `storageKey`, named after `copiesKey`, now exist for the file (row id), in
   * place of those named after `previous`: only while the file still has that content (one conditional update per
   * try, so jobs that overlap, on any server, never record copies of an older content). Answers the key of the
   * copies it replaced (null: none; they may go), 'already' when another job recorded these very copies first, or
   * 'stale' when the file was replaced or deleted meanwhile, so nothing will serve these copies.
   */
  async adoptCopies(
    id: number,
    storageKey: string,
    copiesKey: string,
    previous: string | null,
  ): Promise<{ replaced: string | null } | 'already' | 'stale'> {
    for (;;) {
      const result = await this.db
        .updateTable('gameFiles')
        .set({ copiesKey, copiesOf: storageKey })
        .where('id', '=', id)
        .where('storageKey', '=', storageKey)
        .where((eb) => (previous === null ? eb('copiesKey', 'is', null) : eb('copiesKey', '=', previous)))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return { replaced: previous };
      const now = await this.db
        .selectFrom('gameFiles')
        .select(['storageKey', 'copiesKey'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!now || now.storageKey !== storageKey) return 'stale';
      if (now.copiesKey === copiesKey) return 'already';
      // Another job recorded copies since `previous` was read: the last one made wins, the others' go.
      previous = now.copiesKey;
    }
  }

  /** A new Draft game, with what detection decides for a game without files. */
  async insert(
    game: { name: string; description: string; width: number; height: number },
    detection: PlayDetection,
  ): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('games')
      .values({
        ...game,
        ...detectionColumns(detection),
        gameStatusTypeId: 1,
        isActive: 1,
        imagePath: '',
        rootPath: '',
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    id: number,
    patch: Partial<{
      name: string;
      description: string;
      width: number;
      height: number;
      gameStatusTypeId: number;
      statusReason: string | null;
      isActive: boolean;
      imagePath: string;
      rootPath: string;
      generatedAt: string;
      precompressed: PrecompressedSetting;
      isolated: IsolatedSetting;
    }>,
    db: Executor = this.db,
  ): Promise<boolean> {
    const { isActive, ...rest } = patch;
    const result = await db
      .updateTable('games')
      .set({
        ...rest,
        ...(isActive !== undefined ? { isActive: isActive ? 1 : 0 } : {}),
        updatedAt: nowIso(),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records that a game's files changed (engine and play detection record against the moment). The status stays
   * (decision 0024): a Ready game stays Ready and playable while its changed files get their copies
   * from an incremental generation; a Draft or Failed one waits for Gen. False when the game does not exist. Inside a transaction this update also holds the game row's lock until the
   * commit (PostgreSQL; SQLite runs one writing transaction at a time), so callers make it their first write:
   * changes to one game's files then happen one after another, and every transaction takes the game row
   * before any file row (no deadlock between them).
   */
  async markFilesChanged(gameId: number, db: Executor = this.db): Promise<boolean> {
    const now = nowIso();
    const result = await db
      .updateTable('games')
      .set({ filesChangedAt: now, updatedAt: now })
      .where('id', '=', gameId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The files a game's engine is recognised from, with the moment its files last changed (undefined: no such
   * game). Read in one transaction so the moment belongs to exactly these files.
   */
  async engineInputs(
    gameId: number,
  ): Promise<
    { filesChangedAt: string | null; files: Pick<GameFileRow, 'path' | 'size' | 'storageKey'>[] } | undefined
  > {
    return this.db.transaction().execute(async (trx) => {
      const game = await trx
        .selectFrom('games')
        .select('filesChangedAt')
        .where('id', '=', gameId)
        .executeTakeFirst();
      if (!game) return undefined;
      const files = await trx
        .selectFrom('gameFiles')
        .select(['path', 'size', 'storageKey'])
        .where('gameId', '=', gameId)
        .execute();
      return { filesChangedAt: game.filesChangedAt === null ? null : toIso(game.filesChangedAt), files };
    });
  }

  /**
   * Records the engine recognised from a game's files, only if they have not changed since `filesChangedAt`
   * (engineInputs): a later change records its own. False when they had changed (or the game is gone).
   * updatedAt stays: the engine follows from the files, whose change already moved it.
   */
  async recordEngine(gameId: number, engine: string | null, filesChangedAt: string | null): Promise<boolean> {
    let update = this.db.updateTable('games').set({ engine }).where('id', '=', gameId);
    update =
      filesChangedAt === null
        ? update.where('filesChangedAt', 'is', null)
        : update.where('filesChangedAt', '=', filesChangedAt);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** How the play origin serves a game (decision 0022): its pre-compressed mode and isolation; undefined: no game. */
  async playSettings(
    id: number,
  ): Promise<{ precompressed: PrecompressedMode; isolated: boolean } | undefined> {
    const row = await this.db
      .selectFrom('games')
      .select(['precompressed', 'precompressedDecided', 'isolated', 'isolatedDecided'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const game = {
      precompressed: oneOf(precompressedSettings, row.precompressed, 'auto'),
      precompressedDecided: oneOf(precompressedModes, row.precompressedDecided, 'encoded'),
      isolated: oneOf(isolatedSettings, row.isolated, 'auto'),
      isolatedDecided: row.isolatedDecided === 1,
    };
    return { precompressed: effectivePrecompressed(game), isolated: effectiveIsolated(game) };
  }

  /** When the game's files last changed (null: never, or no such game); detection records against it. */
  async filesChangedAt(id: number, db: Executor = this.db): Promise<string | null | undefined> {
    const row = await db.selectFrom('games').select('filesChangedAt').where('id', '=', id).executeTakeFirst();
    return row && (row.filesChangedAt === null ? null : toIso(row.filesChangedAt));
  }

  /**
   * Records what detection decided from the files as they were when `filesChangedAt` was read: only if they have
   * not changed since (a later change runs its own detection, whose answer must not be overwritten by this one).
   */
  async recordDetection(
    id: number,
    detection: PlayDetection,
    filesChangedAt: string | null,
  ): Promise<boolean> {
    let update = this.db.updateTable('games').set(detectionColumns(detection)).where('id', '=', id);
    update =
      filesChangedAt === null
        ? update.where('filesChangedAt', 'is', null)
        : update.where('filesChangedAt', '=', filesChangedAt);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sets a game Generating unless it already is; true when this call claimed it. */
  async claimForGeneration(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('games')
      .set({
        gameStatusTypeId: GameStatus.Generating,
        statusReason: null,
        generationDone: 0,
        generationTotal: null,
        updatedAt: nowIso(),
      })
      .where('id', '=', id)
      .where('gameStatusTypeId', '<>', GameStatus.Generating)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * A game's status, how many of its images the running generation has done, and when its row last changed
   * (a claim sets it) (undefined: no such game).
   */
  async generationState(
    id: number,
  ): Promise<{ gameStatusTypeId: number; generationDone: number; updatedAt: Timestamp } | undefined> {
    const row = await this.db
      .selectFrom('games')
      .select(['gameStatusTypeId', 'generationDone', 'updatedAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        gameStatusTypeId: row.gameStatusTypeId,
        generationDone: row.generationDone ?? 0,
        updatedAt: row.updatedAt,
      }
    );
  }

  /**
   * Claims a game left Generating with no job to end it (its end could not be recorded) for a new generation, as
   * claimForGeneration does: only if its row has not changed since `updatedAt` was read, so of two presses at once
   * one claims it.
   */
  async reclaimGeneration(id: number, updatedAt: Timestamp): Promise<boolean> {
    const result = await this.db
      .updateTable('games')
      .set({ statusReason: null, generationDone: 0, generationTotal: null, updatedAt: nowIso() })
      .where('id', '=', id)
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .where('updatedAt', '=', updatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The games Generating, with when each was claimed (the services update looks for those no job will end). */
  async generatingGames(): Promise<{ id: number; updatedAt: Timestamp }[]> {
    return this.db
      .selectFrom('games')
      .select(['id', 'updatedAt'])
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .execute();
  }

  /**
   * Records a generation's progress: `done` images of `total` (given once, when it starts). Progress only grows
   * (workers record it concurrently, in any order), and only while the game is Generating.
   */
  async recordProgress(id: number, done: number, total?: number): Promise<void> {
    let update = this.db
      .updateTable('games')
      .set({ generationDone: done, ...(total !== undefined && { generationTotal: total }) })
      .where('id', '=', id)
      .where('gameStatusTypeId', '=', GameStatus.Generating);
    if (total === undefined) update = update.where('generationDone', '<', done);
    await update.execute();
  }

  /** Whether any game is Generating (tests wait for every job to end). */
  async anyGenerating(): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('games')
        .select('id')
        .where('gameStatusTypeId', '=', GameStatus.Generating)
        .limit(1)
        .executeTakeFirst()) !== undefined
    );
  }

  /**
   * Ends a generation. Only a game still Generating changes (one set back to Draft by hand stays a Draft): true when
   * it did.
   */
  async finishGeneration(
    id: number,
    outcome: { gameStatusTypeId: number; statusReason: string | null },
  ): Promise<boolean> {
    const now = nowIso();
    const result = await this.db
      .updateTable('games')
      .set({
        ...outcome,
        ...(outcome.gameStatusTypeId === GameStatus.Ready ? { generatedAt: now } : {}),
        updatedAt: now,
      })
      .where('id', '=', id)
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Whether a file of the game sits under `folder/` (compared exactly: `like` would ignore case on SQLite). */
  async hasTopFolder(gameId: number, folder: string): Promise<boolean> {
    const prefix = `${folder}/`;
    const row = await this.db
      .selectFrom('gameFiles')
      .select('id')
      .where('gameId', '=', gameId)
      .where(sql<string>`substr(${sql.ref('path')}, 1, ${prefix.length})`, '=', prefix)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async failInterruptedGenerations(reason: string): Promise<number[]> {
    const rows = await this.db
      .updateTable('games')
      .set({ gameStatusTypeId: GameStatus.Failed, statusReason: reason, updatedAt: nowIso() })
      .where('gameStatusTypeId', '=', GameStatus.Generating)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Whether a user holds an active assignment (user-game) of a game. */
  async hasActiveAssignment(userId: number, gameId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('userGames')
      .select('id')
      .where('userId', '=', userId)
      .where('gameId', '=', gameId)
      .where('isActive', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async listFiles(gameId: number, db: Executor = this.db): Promise<GameFileRow[]> {
    return db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .orderBy('path')
      .execute();
  }

  /** One page of a game's files matching a search query (POST /games/{id}/files/filter). */
  /**
   * The splash files of the given games (one query for a page of them; the games list's and My Games'
   * previews): the file whose path is the game's imagePath.
   */
  async splashFiles(gameIds: number[]): Promise<Map<number, SplashFile>> {
    if (gameIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('gameFiles')
      .innerJoin('games', 'games.id', 'gameFiles.gameId')
      .select([
        'gameFiles.gameId',
        'gameFiles.path',
        'gameFiles.width',
        'gameFiles.storageKey',
        'gameFiles.copiesKey',
      ])
      .where('gameFiles.gameId', 'in', gameIds)
      .whereRef('gameFiles.path', '=', 'games.imagePath')
      .execute();
    // Each field named: a rest copy of a driver's row is slow (see user-games.repository.ts toUserGame).
    return new Map(
      rows.map((row) => [
        row.gameId,
        { path: row.path, width: row.width, storageKey: row.storageKey, copiesKey: row.copiesKey },
      ]),
    );
  }

  async filterFiles(gameId: number, filter: CompiledFilter): Promise<Page<GameFileRow>> {
    return listPage(
      this.db.selectFrom('gameFiles').select(gameFileColumns).where('gameId', '=', gameId),
      filter,
    );
  }

  async findFile(gameId: number, fileId: number, db: Executor = this.db): Promise<GameFileRow | undefined> {
    return db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
  }

  async findFileByPath(
    gameId: number,
    path: string,
    db: Executor = this.db,
  ): Promise<GameFileRow | undefined> {
    return db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .where('path', '=', path)
      .executeTakeFirst();
  }

  /** The next free public file id within a game. */
  async nextFileId(gameId: number, db: Executor = this.db): Promise<number> {
    const row = await db
      .selectFrom('gameFiles')
      .select((eb) => eb.fn.max('fileId').as('max'))
      .where('gameId', '=', gameId)
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  }

  async insertFile(
    file: Omit<GameFileRow, 'id' | 'isStartFile' | 'isSplash' | 'copiesKey' | 'copiesOf' | 'updatedAt'>,
    db: Executor = this.db,
  ): Promise<number> {
    const now = nowIso();
    // A new file has no copies yet: the play origin serves a blank in their views until they are made.
    const row = await db
      .insertInto('gameFiles')
      .values({
        ...file,
        copiesKey: null,
        copiesOf: null,
        isStartFile: 0,
        isSplash: 0,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * New content for a file. Its copiesKey stays: the play origin serves the previous copies until the
   * incremental generation has made the new ones (decision 0024).
   */
  async replaceFileContent(
    id: number,
    content: Pick<GameFileRow, 'width' | 'height' | 'size' | 'contentType' | 'storageKey'>,
    db: Executor = this.db,
  ): Promise<void> {
    await db
      .updateTable('gameFiles')
      .set({ ...content, updatedAt: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  /** Marks one file as the index (start file) and clears the flag on every other file of the game. */
  /** Whether the game has a file marked as its index (one indexed lookup, whatever the game's size). */
  async hasStartFile(gameId: number, db: Executor = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('gameFiles')
      .select('fileId')
      .where('gameId', '=', gameId)
      .where('isStartFile', '=', 1)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The game's pages (the files that can be its index: .html/.htm, any case), for guessIndex after an upload:
   * they are few, so the read does not grow with the game's images and sounds.
   */
  async listPages(gameId: number, db: Executor = this.db): Promise<Pick<GameFileRow, 'fileId' | 'path'>[]> {
    return db
      .selectFrom('gameFiles')
      .select(['fileId', 'path'])
      .where('gameId', '=', gameId)
      .where((eb) =>
        eb.or(indexExtensions.map((ext) => eb(sql<string>`lower(${eb.ref('path')})`, 'like', `%.${ext}`))),
      )
      .orderBy('path')
      .execute();
  }

  async setStartFile(gameId: number, fileId: number, db: Executor): Promise<void> {
    await db
      .updateTable('gameFiles')
      .set({ isStartFile: 0 })
      .where('gameId', '=', gameId)
      .where('isStartFile', '=', 1)
      .execute();
    await db
      .updateTable('gameFiles')
      .set({ isStartFile: 1, updatedAt: nowIso() })
      .where('gameId', '=', gameId)
      .where('fileId', '=', fileId)
      .execute();
  }

  /** Marks one file as the splash image and clears the flag on every other file of the game. */
  async setSplashFile(gameId: number, fileId: number, db: Executor): Promise<void> {
    await db.updateTable('gameFiles').set({ isSplash: 0 }).where('gameId', '=', gameId).execute();
    await db
      .updateTable('gameFiles')
      .set({ isSplash: 1, updatedAt: nowIso() })
      .where('gameId', '=', gameId)
      .where('fileId', '=', fileId)
      .execute();
  }

  async deleteFile(id: number, db: Executor = this.db): Promise<void> {
    await db.deleteFrom('gameFiles').where('id', '=', id).execute();
  }
}
