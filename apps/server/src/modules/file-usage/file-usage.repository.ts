import type { Kysely } from 'kysely';
import type { FilePageQuery } from '@reskin/contract';
import { isPostgresError, toIso } from '../../db/database';
import type { Database } from '../../db/schema';

/** Loads of one file counted in memory since the last write (play/play-usage.ts). */
export interface CountedLoads {
  gameId: number;
  fileId: number;
  loads: number;
  startLoads: number;
  /** ISO 8601: the first of these loads. */
  firstSeenAt: string;
}

/** One file of a game with its record (a file never loaded has 0 loads and no first time). */
export interface FileUsageRow {
  fileId: number;
  path: string;
  loads: number;
  startLoads: number;
  firstSeenAt: string | null;
}

/** Rows per statement: 5 values each, well under SQLite's and PostgreSQL's limits on parameters. */
const rowsPerStatement = 500;

/** A foreign key violation: the file (or its game) was deleted after its loads were counted. */
function isForeignKeyViolation(error: unknown): boolean {
  if (isPostgresError(error)) return error.code === '23503';
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/** The record of which files plays load (migration 0008, decision 0023). */
export class FileUsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds counted loads to the record: one upsert per 500 files that adds the counts and keeps the earlier first
   * time, so several servers writing the same files at once add up (no read-modify-write). Rows go in one order
   * (game, file), so two servers' statements lock their rows in the same order on PostgreSQL and never deadlock.
   * Loads of a file deleted meanwhile are dropped.
   */
  async add(counted: CountedLoads[]): Promise<void> {
    const rows = [...counted].sort((a, b) => a.gameId - b.gameId || a.fileId - b.fileId);
    for (let start = 0; start < rows.length; start += rowsPerStatement) {
      const chunk = rows.slice(start, start + rowsPerStatement);
      try {
        await this.upsert(chunk);
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        await this.upsert(await this.stillThere(chunk));
      }
    }
  }

  private async upsert(rows: CountedLoads[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('fileUsage')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['gameId', 'fileId']).doUpdateSet((eb) => ({
          loads: eb('fileUsage.loads', '+', eb.ref('excluded.loads')),
          startLoads: eb('fileUsage.startLoads', '+', eb.ref('excluded.startLoads')),
          firstSeenAt: eb
            .case()
            .when(eb.ref('excluded.firstSeenAt'), '<', eb.ref('fileUsage.firstSeenAt'))
            .then(eb.ref('excluded.firstSeenAt'))
            .else(eb.ref('fileUsage.firstSeenAt'))
            .end(),
        })),
      )
      .execute();
  }

  /** The rows whose file still exists. */
  private async stillThere(rows: CountedLoads[]): Promise<CountedLoads[]> {
    const games = [...new Set(rows.map((row) => row.gameId))];
    const existing = await this.db
      .selectFrom('gameFiles')
      .select(['gameId', 'fileId'])
      .where('gameId', 'in', games)
      .execute();
    const present = new Set(existing.map((file) => `${file.gameId}:${file.fileId}`));
    return rows.filter((row) => present.has(`${row.gameId}:${row.fileId}`));
  }

  /** Every file of a game with its record, by path; in pages of `page` (decision 0063). */
  async forGame(gameId: number, { after, limit }: FilePageQuery = {}): Promise<FileUsageRow[]> {
    const rows = await this.db
      .selectFrom('gameFiles')
      .leftJoin('fileUsage', (join) =>
        join
          .onRef('fileUsage.gameId', '=', 'gameFiles.gameId')
          .onRef('fileUsage.fileId', '=', 'gameFiles.fileId'),
      )
      .select([
        'gameFiles.fileId',
        'gameFiles.path',
        'fileUsage.loads',
        'fileUsage.startLoads',
        'fileUsage.firstSeenAt',
      ])
      .where('gameFiles.gameId', '=', gameId)
      .$if(after !== undefined, (query) => query.where('gameFiles.path', '>', after!))
      .orderBy('gameFiles.path')
      .$if(limit !== undefined, (query) => query.limit(limit!))
      .execute();
    return rows.map((row) => ({
      fileId: row.fileId,
      path: row.path,
      loads: Number(row.loads ?? 0),
      startLoads: Number(row.startLoads ?? 0),
      firstSeenAt: row.firstSeenAt === null ? null : toIso(row.firstSeenAt),
    }));
  }
}
