import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { indexExtensions, type FilePageQuery, type GameFile } from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, GameFilesTable } from '../../db/schema';
import type { CompiledFilter, ComputedColumn, SearchableEntity } from '../../search/filter';
import { listPage, type Page } from '../../search/page';

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

/** The columns of a game file that the server reads. */
export const gameFileColumns = [
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

export type GameFileRow = Pick<Selectable<GameFilesTable>, (typeof gameFileColumns)[number]>;

/** A file an upload adds: the rest of its row is set when it is inserted. */
export type NewGameFile = Omit<
  GameFileRow,
  'id' | 'isStartFile' | 'isSplash' | 'copiesKey' | 'copiesOf' | 'updatedAt'
>;

/** Paths looked up in one statement, and rows added in one (well within SQLite's and PostgreSQL's parameter limits). */
const pathsPerStatement = 500;
const rowsPerStatement = 250;

/** What a card's picture needs of a game's splash file (its previews). */
export type SplashFile = Pick<GameFileRow, 'path' | 'width' | 'storageKey' | 'copiesKey'>;

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

/** A game's files: their paths, sizes, content and which one is the index or the splash. */
export class GameFilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listFiles(gameId: number, db: Executor = this.db): Promise<GameFileRow[]> {
    return db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .orderBy('path')
      .execute();
  }

  /** A page of a game's files by path (decision 0063): those after `after`, at most `limit`; all without them. */
  async listFilesPage(gameId: number, { after, limit }: FilePageQuery): Promise<GameFileRow[]> {
    return this.db
      .selectFrom('gameFiles')
      .select(gameFileColumns)
      .where('gameId', '=', gameId)
      .$if(after !== undefined, (query) => query.where('path', '>', after!))
      .orderBy('path')
      .$if(limit !== undefined, (query) => query.limit(limit!))
      .execute();
  }

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

  /** One page of a game's files matching a search query (POST /games/{id}/files/filter). */
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

  /**
   * The game's files at these paths, by path: one statement per `pathsPerStatement` paths (an upload's checks
   * and its recording read them all at once, decision 0061).
   */
  async findFilesByPaths(
    gameId: number,
    paths: string[],
    db: Executor = this.db,
  ): Promise<Map<string, GameFileRow>> {
    const found = new Map<string, GameFileRow>();
    for (let start = 0; start < paths.length; start += pathsPerStatement) {
      const rows = await db
        .selectFrom('gameFiles')
        .select(gameFileColumns)
        .where('gameId', '=', gameId)
        .where('path', 'in', paths.slice(start, start + pathsPerStatement))
        .execute();
      for (const row of rows) found.set(row.path, row);
    }
    return found;
  }

  /**
   * Adds an upload's new files, `rowsPerStatement` to a statement, and answers their rows by fileId. A new file
   * has no copies yet: the play origin serves a blank in their views until they are made.
   */
  async insertFiles(files: NewGameFile[], db: Executor = this.db): Promise<Map<number, GameFileRow>> {
    const inserted = new Map<number, GameFileRow>();
    const now = nowIso();
    for (let start = 0; start < files.length; start += rowsPerStatement) {
      const rows = await db
        .insertInto('gameFiles')
        .values(
          files.slice(start, start + rowsPerStatement).map((file) => ({
            ...file,
            copiesKey: null,
            copiesOf: null,
            isStartFile: 0,
            isSplash: 0,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning(gameFileColumns)
        .execute();
      for (const row of rows) inserted.set(row.fileId, row);
    }
    return inserted;
  }

  /**
   * New content for a file; answers its row. Its copiesKey stays: the play origin serves the previous copies until
   * the incremental generation has made the new ones (decision 0024).
   */
  async replaceFileContent(
    id: number,
    content: Pick<GameFileRow, 'width' | 'height' | 'size' | 'contentType' | 'storageKey'>,
    db: Executor = this.db,
  ): Promise<GameFileRow> {
    return db
      .updateTable('gameFiles')
      .set({ ...content, updatedAt: nowIso() })
      .where('id', '=', id)
      .returning(gameFileColumns)
      .executeTakeFirstOrThrow();
  }

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

  /** The path of the game's index (start file), if one is marked: one indexed lookup, as hasStartFile. */
  async startFilePath(gameId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('gameFiles')
      .select('path')
      .where('gameId', '=', gameId)
      .where('isStartFile', '=', 1)
      .limit(1)
      .executeTakeFirst();
    return row?.path;
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

  /** Marks one file as the index (start file) and clears the flag on every other file of the game. */
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
}
