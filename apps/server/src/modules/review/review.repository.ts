import { sql, type Kysely, type Transaction } from 'kysely';
import {
  GameVersionStatus,
  limits,
  type Note,
  type NotesQuery,
  type ReviewedVersion,
  type Verdict,
} from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, NotesTable } from '../../db/schema';
import { selectVersions, toVersion } from '../versions/versions.repository';
import type { Page } from '../../search/page';

type Executor = Kysely<Database> | Transaction<Database>;
export type NoteRow = Pick<
  NotesTable,
  'versionId' | 'fileId' | 'frame' | 'replyTo' | 'authorId' | 'resolvedAt'
> & { id: number };
export type ResolvedHow = 'marked' | 'answered' | 'replaced';

/** Why a verdict was not recorded: no such version, not Finished, or a verdict since the last finish (by whom). */
export type VerdictRefusal =
  | { reason: 'missing' }
  | { reason: 'not_finished' }
  | { reason: 'exists'; verdict: Verdict; byName: string | null };

/**
 * The review loop's rows (migration 0014): verdicts on gameVersions and the notes table. Every write that
 * has inbox events takes a callback that writes them in the same transaction.
 */
export class ReviewRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `work` in one transaction. */
  inTransaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Records a verdict with one conditional update, so of two reviewers at once exactly one records it (PostgreSQL
   * re-checks the condition on the row the first one changed; SQLite has one writer): the version must be
   * Finished and, unless `replace`, without a verdict (a finish clears it). `lock` locks the version in the same
   * update. `also` writes the inbox events in the same transaction and answers their ids.
   */
  async giveVerdict(
    versionId: number,
    values: { verdict: Verdict; note: string | null; by: number; lock: boolean; replace: boolean },
    also: (trx: Transaction<Database>) => Promise<number[]>,
  ): Promise<{ events: number[] } | VerdictRefusal> {
    return this.inTransaction(async (trx) => {
      const now = nowIso();
      let update = trx
        .updateTable('gameVersions')
        .set({
          verdict: values.verdict,
          verdictNote: values.note,
          verdictAt: now,
          verdictBy: values.by,
          ...(values.lock ? { isLocked: 1 as const } : {}),
          updatedAt: now,
        })
        .where('id', '=', versionId)
        .where('gameVersionStatusId', '=', GameVersionStatus.Finished);
      if (!values.replace) update = update.where('verdict', 'is', null);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return { events: await also(trx) };
      const row = await trx
        .selectFrom('gameVersions')
        .leftJoin('users', 'users.id', 'gameVersions.verdictBy')
        .select(['gameVersions.gameVersionStatusId', 'gameVersions.verdict', 'users.username'])
        .where('gameVersions.id', '=', versionId)
        .executeTakeFirst();
      if (!row) return { reason: 'missing' as const };
      if (row.gameVersionStatusId !== GameVersionStatus.Finished || row.verdict === null)
        return { reason: 'not_finished' as const };
      return { reason: 'exists' as const, verdict: row.verdict as Verdict, byName: row.username ?? null };
    });
  }

  /** Versions with their artist's username and their game's name (the verdict's answer, "To review"). */
  private reviewed() {
    return selectVersions(this.db)
      .innerJoin('users as owner', 'owner.id', 'gameVersions.userId')
      .innerJoin('games as game', 'game.id', 'gameVersions.gameId')
      .select(['owner.username as username', 'game.name as gameName']);
  }

  async reviewedVersion(versionId: number): Promise<ReviewedVersion | undefined> {
    const row = await this.reviewed().where('gameVersions.id', '=', versionId).executeTakeFirst();
    return row && { ...toVersion(row), username: row.username, gameName: row.gameName };
  }

  /** Finished versions without a verdict (a finish clears the previous one), the oldest finish first. */
  async toReview(): Promise<Page<ReviewedVersion>> {
    const rows = await this.reviewed()
      .where('gameVersions.gameVersionStatusId', '=', GameVersionStatus.Finished)
      .where('gameVersions.verdict', 'is', null)
      .orderBy('gameVersions.finishedAt', 'asc')
      .orderBy('gameVersions.id', 'asc')
      .limit(limits.review.toReviewMax)
      .execute();
    const { total } = await this.db
      .selectFrom('gameVersions')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('gameVersionStatusId', '=', GameVersionStatus.Finished)
      .where('verdict', 'is', null)
      .executeTakeFirstOrThrow();
    return {
      rows: rows.map((row) => ({ ...toVersion(row), username: row.username, gameName: row.gameName })),
      total: Number(total),
    };
  }

  /** A page of a version's notes as the API shows them, oldest first: ids above `after`, at most `limit`. */
  async listNotes(
    versionId: number,
    { after = 0, limit = limits.review.notesListMax }: NotesQuery = {},
  ): Promise<Note[]> {
    const rows = await this.notes()
      .where('notes.versionId', '=', versionId)
      .where('notes.id', '>', after)
      .orderBy('notes.id')
      .limit(limit)
      .execute();
    return rows.map(toNote);
  }

  async noteView(noteId: number): Promise<Note | undefined> {
    const row = await this.notes().where('notes.id', '=', noteId).executeTakeFirst();
    return row && toNote(row);
  }

  /** Notes with their authors' and resolvers' names and their file's game path. */
  private notes() {
    return this.db
      .selectFrom('notes')
      .innerJoin('gameVersions', 'gameVersions.id', 'notes.versionId')
      .leftJoin('users as author', 'author.id', 'notes.authorId')
      .leftJoin('users as resolver', 'resolver.id', 'notes.resolvedBy')
      .leftJoin('gameFiles', (join) =>
        join
          .onRef('gameFiles.gameId', '=', 'gameVersions.gameId')
          .onRef('gameFiles.fileId', '=', 'notes.fileId'),
      )
      .selectAll('notes')
      .select([
        'author.username as authorName',
        'resolver.username as resolvedByName',
        'gameFiles.path as path',
      ]);
  }

  findNote(noteId: number, db: Executor = this.db): Promise<NoteRow | undefined> {
    return db
      .selectFrom('notes')
      .select(['id', 'versionId', 'fileId', 'frame', 'replyTo', 'authorId', 'resolvedAt'])
      .where('id', '=', noteId)
      .executeTakeFirst();
  }

  async insertNote(
    trx: Executor,
    values: {
      versionId: number;
      fileId: number | null;
      frame: string | null;
      replyTo: number | null;
      authorId: number;
      text: string;
    },
  ): Promise<number> {
    const now = nowIso();
    const row = await trx
      .insertInto('notes')
      .values({
        ...values,
        resolvedAt: null,
        resolvedBy: null,
        resolvedHow: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Resolves an open note (true) or reopens a resolved one; false when it already was so (nothing changed). */
  async setResolved(
    trx: Executor,
    noteId: number,
    resolved: boolean,
    by: number,
    how: ResolvedHow,
  ): Promise<boolean> {
    const now = nowIso();
    const result = resolved
      ? await trx
          .updateTable('notes')
          .set({ resolvedAt: now, resolvedBy: by, resolvedHow: how, updatedAt: now })
          .where('id', '=', noteId)
          .where('resolvedAt', 'is', null)
          .executeTakeFirst()
      : await trx
          .updateTable('notes')
          .set({ resolvedAt: null, resolvedBy: null, resolvedHow: null, updatedAt: now })
          .where('id', '=', noteId)
          .where('resolvedAt', 'is not', null)
          .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setText(noteId: number, text: string): Promise<void> {
    await this.db.updateTable('notes').set({ text, updatedAt: nowIso() }).where('id', '=', noteId).execute();
  }

  /**
   * Resolves the open notes on one file of a version (on one frame of it when `frame` is given) as 'replaced', in
   * one statement (threads' first notes: answers have no open state of their own); answers the resolved notes' ids and authors.
   */
  resolveOnFile(
    trx: Executor,
    versionId: number,
    fileId: number,
    frame: string | null,
    by: number,
  ): Promise<{ id: number; authorId: number; fileId: number | null }[]> {
    const now = nowIso();
    let update = trx
      .updateTable('notes')
      .set({ resolvedAt: now, resolvedBy: by, resolvedHow: 'replaced', updatedAt: now })
      .where('versionId', '=', versionId)
      .where('fileId', '=', fileId)
      .where('replyTo', 'is', null)
      .where('resolvedAt', 'is', null);
    if (frame !== null) update = update.where('frame', '=', frame);
    return update.returning(['id', 'authorId', 'fileId']).execute();
  }

  /** resolveOnFile for several whole files of a version at once (a batch's group), in one statement. */
  resolveOnFiles(
    trx: Executor,
    versionId: number,
    fileIds: number[],
    by: number,
  ): Promise<{ id: number; authorId: number; fileId: number | null }[]> {
    const now = nowIso();
    return trx
      .updateTable('notes')
      .set({ resolvedAt: now, resolvedBy: by, resolvedHow: 'replaced', updatedAt: now })
      .where('versionId', '=', versionId)
      .where('fileId', 'in', fileIds)
      .where('replyTo', 'is', null)
      .where('resolvedAt', 'is', null)
      .returning(['id', 'authorId', 'fileId'])
      .execute();
  }

  /**
   * Who reviews a version, as far as it shows: the authors of its notes other than its artist, and who gave its
   * verdict (users still there).
   */
  async reviewersOf(trx: Executor, versionId: number, artistId: number): Promise<number[]> {
    const rows = await trx
      .selectFrom('notes')
      .select('authorId as id')
      .where('versionId', '=', versionId)
      .where('authorId', '<>', artistId)
      .union(
        trx
          .selectFrom('gameVersions')
          .select(sql<number>`${sql.ref('verdictBy')}`.as('id'))
          .where('id', '=', versionId)
          .where('verdictBy', 'is not', null),
      )
      .execute();
    return [...new Set(rows.map((row) => Number(row.id)))];
  }
}

type NoteViewRow = Awaited<ReturnType<ReturnType<ReviewRepository['notes']>['executeTakeFirstOrThrow']>>;

function toNote(row: NoteViewRow): Note {
  return {
    id: row.id,
    versionId: row.versionId,
    fileId: row.fileId,
    path: row.path ?? null,
    frame: row.frame,
    replyTo: row.replyTo,
    authorId: row.authorId,
    authorName: row.authorName ?? '',
    text: row.text,
    resolved: row.resolvedAt !== null,
    resolvedAt: row.resolvedAt === null ? null : toIso(row.resolvedAt),
    resolvedByName: row.resolvedByName ?? null,
    resolvedHow: row.resolvedHow as Note['resolvedHow'],
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}
