import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  GameVersionStatus,
  type FilePageQuery,
  type GameVersion,
  type ReviewState,
  type Verdict,
  type VersionFile,
} from '@reskin/contract';
import { nowIso, toIso, type Dialect } from '../../db/database';
import type { Database, GameVersionsTable, VersionFilesTable } from '../../db/schema';
import type { CompiledFilter, SearchableEntity } from '../../search/filter';
import { listPage, type Page } from '../../search/page';

/** The version columns that POST /game-versions/filter's where and order may name. */
export const searchableVersion: SearchableEntity = {
  table: 'gameVersions',
  columns: {
    id: 'number',
    name: 'string',
    description: 'string',
    gameId: 'number',
    userGamesId: 'number',
    userId: 'number',
    isLocked: 'boolean',
    isActive: 'boolean',
    gameVersionStatusId: 'number',
    finishedAt: 'date',
    createdAt: 'date',
    updatedAt: 'date',
  },
};

type VersionRow = Selectable<GameVersionsTable> & {
  verdictByName: string | null;
  openNotes: number | string;
  openQuestions: number | string;
};
export type VersionFileRow = Selectable<VersionFilesTable>;
/** The reviewer's flags on a version, which decide whether its files may change (versionChangeRefusal). */
export type VersionFlags = Pick<GameVersion, 'isLocked' | 'isActive'>;

/**
 * A version's review fields beside its own columns, worked out by the database for every row it reads in
 * the same query (one query per page, never one per row): who gave the verdict, and its open notes (the threads'
 * first notes not resolved; answers have no open state of their own; notes are indexed by versionId).
 */
export const versionReviewColumns = {
  verdictByName: sql<
    string | null
  >`(select ${sql.ref('users.username')} from ${sql.table('users')} where ${sql.ref('users.id')} = ${sql.ref('gameVersions.verdictBy')})`,
  openNotes: sql<number>`(select count(*) from ${sql.table('notes')} where ${sql.ref('notes.versionId')} = ${sql.ref('gameVersions.id')} and ${sql.ref('notes.replyTo')} is null and ${sql.ref('notes.resolvedAt')} is null)`,
  // Of those, the threads its artist started (questions waiting for a reviewer, not for the artist: decision 0052).
  openQuestions: sql<number>`(select count(*) from ${sql.table('notes')} where ${sql.ref('notes.versionId')} = ${sql.ref('gameVersions.id')} and ${sql.ref('notes.replyTo')} is null and ${sql.ref('notes.resolvedAt')} is null and ${sql.ref('notes.authorId')} = ${sql.ref('gameVersions.userId')})`,
};

/** Versions with their columns and review fields (every read of a version goes through this). */
export function selectVersions(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('gameVersions')
    .selectAll('gameVersions')
    .select([
      versionReviewColumns.verdictByName.as('verdictByName'),
      versionReviewColumns.openNotes.as('openNotes'),
      versionReviewColumns.openQuestions.as('openQuestions'),
    ]);
}

/** In progress (not Finished), to review (Finished, no verdict since: a finish clears it), or its verdict. */
function reviewStateOf(row: Pick<VersionRow, 'gameVersionStatusId' | 'verdict'>): ReviewState {
  if (row.gameVersionStatusId !== GameVersionStatus.Finished) return 'in_progress';
  return (row.verdict as Verdict | null) ?? 'to_review';
}

/**
 * Each field named (no rest or spread of the row, which leaves out verdictBy): the driver's rows are dictionary-mode
 * objects, which a spread copies slowly (a page of 100 versions).
 */
export function toVersion(row: VersionRow): GameVersion {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    gameId: row.gameId,
    userGamesId: row.userGamesId,
    userId: row.userId,
    gameVersionStatusId: row.gameVersionStatusId,
    rootPath: row.rootPath,
    verdictNote: row.verdictNote,
    verdictByName: row.verdictByName,
    verdict: row.verdict as Verdict | null,
    verdictAt: row.verdictAt ? toIso(row.verdictAt) : null,
    reviewState: reviewStateOf(row),
    // Counts are numbers on both databases; Number() also covers a driver that answers text.
    openNotes: Number(row.openNotes),
    openQuestions: Number(row.openQuestions),
    isLocked: row.isLocked === 1,
    isActive: row.isActive === 1,
    finishedAt: row.finishedAt ? toIso(row.finishedAt) : null,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/**
 * A version file as the API shows it. `original`: its game file's pixel size now (undefined: not looked up, or the
 * file is gone); a replacement of another size no longer fits (decision 0024), derived at read time.
 */
export function toVersionFile(
  row: VersionFileRow,
  original?: { width: number | null; height: number | null },
): VersionFile {
  const fits =
    original === undefined ||
    original.width === null ||
    row.width === null ||
    (original.width === row.width && original.height === row.height);
  return {
    id: row.id,
    fileId: row.fileId,
    path: row.path,
    width: row.width,
    height: row.height,
    size: row.size,
    contentType: row.contentType,
    updatedAt: toIso(row.updatedAt),
    fits,
  };
}

export class VersionsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Whose a version's assignment is and whether it is active (a version's reachability, decision 0007). */
  async assignmentOf(userGamesId: number): Promise<{ userId: number; isActive: number } | undefined> {
    return this.db
      .selectFrom('userGames')
      .select(['userId', 'isActive'])
      .where('id', '=', userGamesId)
      .executeTakeFirst();
  }

  async findById(id: number): Promise<GameVersion | undefined> {
    const row = await selectVersions(this.db).where('gameVersions.id', '=', id).executeTakeFirst();
    return row && toVersion(row);
  }

  /** One page of the versions with the given owner keys that match a search query (POST /game-versions/filter). */
  async filter(
    keys: { userId?: number; gameId?: number; userGamesId?: number },
    filter: CompiledFilter,
  ): Promise<Page<GameVersion>> {
    let query = selectVersions(this.db);
    if (keys.userId !== undefined) query = query.where('gameVersions.userId', '=', keys.userId);
    if (keys.gameId !== undefined) query = query.where('gameVersions.gameId', '=', keys.gameId);
    if (keys.userGamesId !== undefined)
      query = query.where('gameVersions.userGamesId', '=', keys.userGamesId);
    const page = await listPage(query, filter);
    return { ...page, rows: page.rows.map(toVersion) };
  }

  async list(where: { userId?: number; gameId?: number; userGamesId?: number }): Promise<GameVersion[]> {
    let query = selectVersions(this.db);
    if (where.userId !== undefined) query = query.where('gameVersions.userId', '=', where.userId);
    if (where.gameId !== undefined) query = query.where('gameVersions.gameId', '=', where.gameId);
    if (where.userGamesId !== undefined)
      query = query.where('gameVersions.userGamesId', '=', where.userGamesId);
    return (await query.orderBy('gameVersions.id').limit(1000).execute()).map(toVersion);
  }

  /**
   * Creates a version unless the user-game already has `max`: the count and the insert run in one
   * transaction that first locks the user-game row (PostgreSQL; SQLite runs one write transaction at a
   * time), so concurrent creates cannot pass the limit. Answers the new id, or undefined at the limit.
   */
  async insertWithinLimit(
    values: { name: string; description: string; gameId: number; userGamesId: number; userId: number },
    max: number,
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const lock = trx.selectFrom('userGames').select('id').where('id', '=', values.userGamesId);
      await (this.dialect === 'postgres' ? lock.forUpdate() : lock).execute();
      const { count } = await trx
        .selectFrom('gameVersions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('userGamesId', '=', values.userGamesId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return undefined;
      const now = nowIso();
      const row = await trx
        .insertInto('gameVersions')
        .values({
          ...values,
          isLocked: 0,
          isActive: 1,
          gameVersionStatusId: 1,
          finishedAt: null,
          rootPath: '',
          createdAt: now,
          updatedAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  /**
   * "I Finished My Game": status Finished, the finish time, and no verdict (a verdict counts for the
   * finish it followed), with what `also` writes (the inbox events) in the same transaction; answers what `also`
   * answered, or undefined when the version is gone.
   */
  async finish(
    id: number,
    also: (trx: Transaction<Database>) => Promise<number[]>,
  ): Promise<number[] | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const result = await trx
        .updateTable('gameVersions')
        .set({
          gameVersionStatusId: GameVersionStatus.Finished,
          finishedAt: now,
          verdict: null,
          verdictNote: null,
          verdictAt: null,
          verdictBy: null,
          updatedAt: now,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      return also(trx);
    });
  }

  async update(
    id: number,
    patch: Partial<{
      name: string;
      description: string;
      isLocked: boolean;
      isActive: boolean;
      gameVersionStatusId: number;
      finishedAt: string;
    }>,
  ): Promise<void> {
    const { isLocked, isActive, ...rest } = patch;
    await this.db
      .updateTable('gameVersions')
      .set({
        ...rest,
        ...(isLocked !== undefined ? { isLocked: isLocked ? 1 : 0 } : {}),
        ...(isActive !== undefined ? { isActive: isActive ? 1 : 0 } : {}),
        updatedAt: nowIso(),
      })
      .where('id', '=', id)
      .execute();
  }

  listFiles(versionId: number): Promise<VersionFileRow[]> {
    return this.db
      .selectFrom('versionFiles')
      .selectAll()
      .where('gameVersionId', '=', versionId)
      .orderBy('path')
      .execute();
  }

  /** A version's files, each with its game file's pixel size now (null when the game file is gone). */
  /** A version's files with their originals' sizes, by path; in pages of `page` (decision 0063). */
  listFilesWithOriginals(
    versionId: number,
    { after, limit }: FilePageQuery = {},
  ): Promise<(VersionFileRow & { originalWidth: number | null; originalHeight: number | null })[]> {
    return this.db
      .selectFrom('versionFiles')
      .innerJoin('gameVersions', 'gameVersions.id', 'versionFiles.gameVersionId')
      .leftJoin('gameFiles', (join) =>
        join
          .onRef('gameFiles.gameId', '=', 'gameVersions.gameId')
          .onRef('gameFiles.fileId', '=', 'versionFiles.fileId'),
      )
      .selectAll('versionFiles')
      .select(['gameFiles.width as originalWidth', 'gameFiles.height as originalHeight'])
      .where('versionFiles.gameVersionId', '=', versionId)
      .$if(after !== undefined, (query) => query.where('versionFiles.path', '>', after!))
      .orderBy('versionFiles.path')
      .$if(limit !== undefined, (query) => query.limit(limit!))
      .execute();
  }

  findFile(
    versionId: number,
    fileId: number,
    db: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<VersionFileRow | undefined> {
    return db
      .selectFrom('versionFiles')
      .selectAll()
      .where('gameVersionId', '=', versionId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
  }

  /**
   * Locks the version row until the commit (an update: PostgreSQL's row lock; SQLite has one writer) and hands
   * its flags as they are now to `mayChange`, which throws to refuse (the transaction rolls back): a lock or a
   * disable set while an upload streamed in still counts. False when the version is gone.
   */
  async lockVersion(
    trx: Transaction<Database>,
    id: number,
    mayChange: (flags: VersionFlags) => void,
  ): Promise<boolean> {
    // One statement: the update takes the lock and answers the flags as they are under it.
    const row = await trx
      .updateTable('gameVersions')
      .set({ updatedAt: nowIso() })
      .where('id', '=', id)
      .returning(['isLocked', 'isActive'])
      .executeTakeFirst();
    if (!row) return false;
    mayChange({ isLocked: row.isLocked === 1, isActive: row.isActive === 1 });
    return true;
  }

  /**
   * Records a version's replacement of one game file; answers the storage key it replaced (null when none), or
   * undefined when the version is gone (deleted, maybe with its user-game, user or game, while the file
   * streamed in). `mayChange` sees the version's flags once its row is locked and throws to refuse.
   */
  /**
   * Records a version's replacement of one game file: answers the stored key it replaced (null when it is the first)
   * and the row as saved, which the upload answers (a Restore original right after may already have removed it), or
   * undefined when the version is gone.
   */
  async saveFile(
    file: Omit<VersionFileRow, 'id' | 'createdAt' | 'updatedAt'>,
    mayChange: (flags: VersionFlags) => void,
    /** Runs in the same transaction once the row is saved: the file's history entry (decision 0034). */
    also?: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<{ previousKey: string | null; saved: VersionFileRow } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      // First: it locks the version row until the commit, so parallel uploads of one file take turns and
      // the second replaces the first instead of inserting it again (PostgreSQL; SQLite has one writer). A
      // delete of the version takes the same lock first (stored-files.repository.ts).
      if (!(await this.lockVersion(trx, file.gameVersionId, mayChange))) return undefined;
      const existing = await this.findFile(file.gameVersionId, file.fileId, trx);
      if (existing) {
        const saved = await trx
          .updateTable('versionFiles')
          .set({ ...file, updatedAt: now })
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await also?.(trx);
        return { previousKey: existing.storageKey, saved };
      }
      const saved = await trx
        .insertInto('versionFiles')
        .values({ ...file, createdAt: now, updatedAt: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await also?.(trx);
      return { previousKey: null, saved };
    });
  }

  /**
   * Removes a version's replacement of one game file, and what `alsoRemove` removes in the same transaction (a
   * sheet's replaced frames); answers the storage keys they pointed to, or undefined when the version has none
   * (or is gone). It locks the version row first, like saveFile, so a parallel upload of
   * the same file either records before (and its row is the one removed here) or after (and inserts anew).
   * `mayChange` sees the version's flags once its row is locked and throws to refuse.
   */
  async deleteFile(
    versionId: number,
    fileId: number,
    mayChange: (flags: VersionFlags) => void,
    alsoRemove: (trx: Transaction<Database>) => Promise<string[]> = async () => [],
  ): Promise<string[] | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.lockVersion(trx, versionId, mayChange))) return undefined;
      const existing = await this.findFile(versionId, fileId, trx);
      if (!existing) return undefined;
      await trx.deleteFrom('versionFiles').where('id', '=', existing.id).execute();
      return [existing.storageKey, ...(await alsoRemove(trx))];
    });
  }
}
