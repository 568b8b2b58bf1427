import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { HistoryHow } from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, VersionFileHistoryTable } from '../../db/schema';
import type { HistoryCause, StagedEntry } from '../versions/intake/history-entries';
import type { VersionsRepository } from '../versions/versions.repository';

export type HistoryRow = Selectable<VersionFileHistoryTable>;

export type { HistoryCause, StagedEntry };

/** An entry as the history route lists it, before its URL is made. */
export interface ListedEntry extends Omit<HistoryRow, 'createdAt' | 'how' | 'storageKey' | 'fileKey'> {
  how: HistoryHow;
  createdAt: string;
  authorName: string | null;
  current: boolean;
}

/** The rows of versionFileHistory (migration 0015, decision 0034). */
export class VersionHistoryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly versions: VersionsRepository,
  ) {}

  /**
   * Adds an entry inside the transaction that records the version file (its version row is locked there, so
   * entries of one file are added one at a time on every server) and drops the oldest beyond `limit`; answers the
   * dropped entries' storage keys, to delete after the commit.
   */
  async record(
    trx: Transaction<Database>,
    versionId: number,
    fileId: number,
    staged: StagedEntry,
    cause: HistoryCause,
    /** Entries kept; undefined: the caller knows the file stays within its limit. */
    limit: number | undefined,
  ): Promise<string[]> {
    await trx
      .insertInto('versionFileHistory')
      .values({
        versionId,
        fileId,
        ...staged,
        authorId: cause.authorId,
        how: cause.how,
        restoredFrom: cause.restoredFrom ?? null,
        createdAt: nowIso(),
      })
      .execute();
    return limit === undefined ? [] : this.trim(trx, versionId, fileId, limit);
  }

  /**
   * record for several files of a version (a batch's group, decision 0060): one insert, then every entry beyond
   * the newest `limit` of each of those files dropped in one statement; answers the dropped storage keys.
   */
  async recordMany(
    trx: Transaction<Database>,
    versionId: number,
    entries: { fileId: number; staged: StagedEntry }[],
    cause: HistoryCause,
    limit: number,
  ): Promise<string[]> {
    if (entries.length === 0) return [];
    const createdAt = nowIso();
    await trx
      .insertInto('versionFileHistory')
      .values(
        entries.map(({ fileId, staged }) => ({
          versionId,
          fileId,
          ...staged,
          authorId: cause.authorId,
          how: cause.how,
          restoredFrom: cause.restoredFrom ?? null,
          createdAt,
        })),
      )
      .execute();
    const rows = await trx
      .selectFrom('versionFileHistory')
      .select(['id', 'fileId', 'storageKey'])
      .where('versionId', '=', versionId)
      .where(
        'fileId',
        'in',
        entries.map((entry) => entry.fileId),
      )
      .orderBy('fileId')
      .orderBy('id', 'desc')
      .execute();
    const kept = new Map<number, number>();
    const dropped = rows.filter((row) => {
      const count = (kept.get(row.fileId) ?? 0) + 1;
      kept.set(row.fileId, count);
      return count > limit;
    });
    if (dropped.length === 0) return [];
    await trx
      .deleteFrom('versionFileHistory')
      .where(
        'id',
        'in',
        dropped.map((row) => row.id),
      )
      .execute();
    return dropped.map((row) => row.storageKey);
  }

  /** Drops a file's entries beyond the newest `limit`; answers their storage keys. */
  private async trim(
    trx: Transaction<Database>,
    versionId: number,
    fileId: number,
    limit: number,
  ): Promise<string[]> {
    const rows = await trx
      .selectFrom('versionFileHistory')
      .select(['id', 'storageKey'])
      .where('versionId', '=', versionId)
      .where('fileId', '=', fileId)
      .orderBy('id', 'desc')
      .execute();
    const dropped = rows.slice(limit);
    if (dropped.length === 0) return [];
    await trx
      .deleteFrom('versionFileHistory')
      .where(
        'id',
        'in',
        dropped.map((row) => row.id),
      )
      .execute();
    return dropped.map((row) => row.storageKey);
  }

  /**
   * The services update (VERSION_HISTORY_LIMIT may have been lowered since): drops every file's entries beyond
   * `limit`, one version at a time with its row locked like an upload's; answers how many and their keys.
   */
  async trimAll(limit: number): Promise<{ entries: number; keys: string[] }> {
    const over = await this.db
      .selectFrom('versionFileHistory')
      .select(['versionId', 'fileId'])
      .groupBy(['versionId', 'fileId'])
      .having((eb) => eb.fn.countAll(), '>', limit)
      .execute();
    const keys: string[] = [];
    for (const { versionId, fileId } of over) {
      keys.push(
        ...(await this.db.transaction().execute(async (trx) => {
          if (!(await this.versions.lockVersion(trx, versionId, () => undefined))) return [];
          return this.trim(trx, versionId, fileId, limit);
        })),
      );
    }
    return { entries: keys.length, keys };
  }

  /** A file's entries, newest first, with their authors' names and which one the version serves now. */
  async list(versionId: number, fileId: number): Promise<ListedEntry[]> {
    const rows = await this.db
      .selectFrom('versionFileHistory as h')
      .leftJoin('users as u', 'u.id', 'h.authorId')
      .leftJoin('versionFiles as f', (join) =>
        join.onRef('f.gameVersionId', '=', 'h.versionId').onRef('f.fileId', '=', 'h.fileId'),
      )
      .select([
        'h.id',
        'h.versionId',
        'h.fileId',
        'h.fileKey',
        'h.size',
        'h.width',
        'h.height',
        'h.contentType',
        'h.authorId',
        'h.how',
        'h.restoredFrom',
        'h.createdAt',
        'u.username as authorName',
        'f.storageKey as currentKey',
      ])
      .where('h.versionId', '=', versionId)
      .where('h.fileId', '=', fileId)
      .orderBy('h.id', 'desc')
      .execute();
    return rows.map(({ fileKey, currentKey, createdAt, how, ...row }) => ({
      ...row,
      size: Number(row.size),
      how: how as HistoryHow,
      createdAt: toIso(createdAt),
      current: currentKey !== null && currentKey === fileKey,
    }));
  }

  async find(versionId: number, fileId: number, entryId: number): Promise<HistoryRow | undefined> {
    return this.db
      .selectFrom('versionFileHistory')
      .selectAll()
      .where('id', '=', entryId)
      .where('versionId', '=', versionId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
  }

  /**
   * The bytes a version keeps in storage, in one statement: its current files (composed sheets included) and the
   * whole-sheet uploads its frames are drawn onto, and its history entries.
   */
  async storageUse(
    versionId: number,
  ): Promise<{ currentBytes: number; historyBytes: number; historyEntries: number }> {
    const { rows } = await sql<{
      currentBytes: number | string;
      historyBytes: number | string;
      historyEntries: number | string;
    }>`select
      (select coalesce(sum(${sql.ref('size')}), 0) from ${sql.table('versionFiles')} where ${sql.ref('gameVersionId')} = ${versionId})
        + (select coalesce(sum(${sql.ref('baseSize')}), 0) from ${sql.table('versionSheets')} where ${sql.ref('gameVersionId')} = ${versionId}) as ${sql.ref('currentBytes')},
      (select coalesce(sum(${sql.ref('size')}), 0) from ${sql.table('versionFileHistory')} where ${sql.ref('versionId')} = ${versionId}) as ${sql.ref('historyBytes')},
      (select count(*) from ${sql.table('versionFileHistory')} where ${sql.ref('versionId')} = ${versionId}) as ${sql.ref('historyEntries')}`.execute(
      this.db,
    );
    const row = rows[0]!;
    // PostgreSQL answers sum(bigint) as numeric (a string).
    return {
      currentBytes: Number(row.currentBytes),
      historyBytes: Number(row.historyBytes),
      historyEntries: Number(row.historyEntries),
    };
  }

  /** Every history object's key (the services update's referenced keys). */
  async allKeys(): Promise<string[]> {
    return (await this.db.selectFrom('versionFileHistory').select('storageKey').execute()).map(
      (row) => row.storageKey,
    );
  }
}
