import type { Kysely, Transaction } from 'kysely';
import { RoleType, type InboxEvent, type InboxEventKind } from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database } from '../../db/schema';

/** One event for one recipient, as a cause writes it (inbox.service.ts's add). */
export interface NewInboxEvent {
  userId: number;
  kind: InboxEventKind;
  actorId: number | null;
  gameId?: number | null;
  userGameId?: number | null;
  versionId?: number | null;
  fileId?: number | null;
  noteId?: number | null;
  /** A short summary (a verdict's words, a note's beginning); cut to the column's 500 characters. */
  text: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** The inbox's rows (migration 0013): one per event and recipient; read state per row. */
export class InboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the events in the caller's transaction (with their cause) and answers their ids. */
  async insert(trx: Executor, events: NewInboxEvent[]): Promise<number[]> {
    if (events.length === 0) return [];
    const createdAt = nowIso();
    const rows = await trx
      .insertInto('inboxEvents')
      .values(
        events.map((event) => ({
          userId: event.userId,
          kind: event.kind,
          actorId: event.actorId,
          gameId: event.gameId ?? null,
          userGameId: event.userGameId ?? null,
          versionId: event.versionId ?? null,
          fileId: event.fileId ?? null,
          noteId: event.noteId ?? null,
          text: event.text.length > 500 ? `${event.text.slice(0, 499)}…` : event.text,
          createdAt,
          readAt: null,
          mailState: null,
        })),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Runs `work` in one transaction (events written with their cause: InboxService.toActiveAdmins). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The ids of every active administrator (the reviewers told of a finished version). */
  async activeAdminIds(trx: Executor): Promise<number[]> {
    const rows = await trx
      .selectFrom('users')
      .select('id')
      .where('roleTypeId', '=', RoleType.Admin)
      .where('activated', '=', 1)
      .execute();
    return rows.map((row) => row.id);
  }

  /** One page of a user's events, newest first, older than `before` when given. */
  async list(userId: number, before: number | undefined, limit: number): Promise<InboxEvent[]> {
    let query = this.db
      .selectFrom('inboxEvents')
      .leftJoin('users', 'users.id', 'inboxEvents.actorId')
      .leftJoin('games', 'games.id', 'inboxEvents.gameId')
      // Whose version it is (decision 0052): "your version" only for its artist.
      .leftJoin('gameVersions', 'gameVersions.id', 'inboxEvents.versionId')
      .leftJoin('users as owners', 'owners.id', 'gameVersions.userId')
      .selectAll('inboxEvents')
      .select([
        'users.username as actorName',
        'games.name as gameName',
        'gameVersions.userId as versionOwnerId',
        'owners.username as versionOwnerName',
      ])
      .where('inboxEvents.userId', '=', userId);
    if (before !== undefined) query = query.where('inboxEvents.id', '<', before);
    const rows = await query.orderBy('inboxEvents.id', 'desc').limit(limit).execute();
    return rows.map(({ userId: _userId, mailState: _mailState, versionOwnerId, ...row }) => ({
      ...row,
      kind: row.kind as InboxEventKind,
      actorName: row.actorName ?? null,
      gameName: row.gameName ?? null,
      versionOwner:
        versionOwnerId === null || versionOwnerId === undefined
          ? null
          : versionOwnerId === userId
            ? ('yours' as const)
            : ('others' as const),
      versionOwnerName: row.versionOwnerName ?? null,
      createdAt: toIso(row.createdAt),
      readAt: row.readAt === null ? null : toIso(row.readAt),
    }));
  }

  async unreadCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('inboxEvents')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('userId', '=', userId)
      .where('readAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Marks a user's events read: the given ids (others' ids are left alone), or all. */
  async markRead(userId: number, ids: number[] | 'all'): Promise<void> {
    let query = this.db
      .updateTable('inboxEvents')
      .set({ readAt: nowIso() })
      .where('userId', '=', userId)
      .where('readAt', 'is', null);
    if (ids !== 'all') query = query.where('id', 'in', ids);
    await query.execute();
  }
}
