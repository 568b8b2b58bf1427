import type { Kysely, Transaction } from 'kysely';
import { limits, type Inbox, type InboxReadBody, type User } from '@reskin/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/schema';
import type { InboxRepository, NewInboxEvent } from './inbox.repository';

export type { NewInboxEvent } from './inbox.repository';

/**
 * Called with the ids of events just written, after their transaction committed (on the server that wrote them).
 * The hook for what follows an event, such as mail; none by default. A listener's failure is logged and never
 * fails the request that caused the event; anything that must not be lost keeps its state in the database
 * (inboxEvents.mailState), since another server may be the one to pick it up.
 */
export type InboxEventsListener = (ids: number[]) => void | Promise<void>;

/**
 * The inbox: what happened that concerns a user. Causes (a game assigned, a version finished, a verdict,
 * a note, a note answered) write their events with `add` in their own transaction, then call `added` once it
 * committed. All state is in the database: any server answers any user's inbox.
 */
export class InboxService {
  /** After-commit listeners of new events (see InboxEventsListener): empty unless something registers one. */
  readonly onEventsAdded: InboxEventsListener[] = [];

  constructor(
    private readonly inbox: InboxRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Writes events in the caller's transaction: one row per recipient, never to the one who caused it (the actor),
   * each recipient once per kind, version and note. Answers the new rows' ids (for `added`).
   */
  async add(trx: Kysely<Database> | Transaction<Database>, events: NewInboxEvent[]): Promise<number[]> {
    const seen = new Set<string>();
    const wanted = events.filter((event) => {
      const key = `${event.userId}:${event.kind}:${event.versionId ?? ''}:${event.noteId ?? ''}`;
      if (event.userId === event.actorId || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return this.inbox.insert(trx, wanted);
  }

  /** Every active administrator's id (who is told of a finished version). */
  activeAdminIds(trx: Kysely<Database> | Transaction<Database>): Promise<number[]> {
    return this.inbox.activeAdminIds(trx);
  }

  /**
   * Tells every active administrator of something the system did (no actor): a failed generation (decision 0052).
   * Writes the events in a transaction of their own, then runs the listeners (mail).
   */
  async toActiveAdmins(event: Omit<NewInboxEvent, 'userId' | 'actorId'>): Promise<void> {
    const ids = await this.inbox.transaction(async (trx) => {
      const admins = await this.inbox.activeAdminIds(trx);
      return this.add(
        trx,
        admins.map((userId) => ({ ...event, userId, actorId: null })),
      );
    });
    this.added(ids);
  }

  /** To call after the transaction that added `ids` committed: runs the listeners, never throws. */
  added(ids: number[]): void {
    if (ids.length === 0) return;
    for (const listener of this.onEventsAdded) {
      Promise.resolve()
        .then(() => listener(ids))
        .catch((error: unknown) => this.log.error({ err: error, ids }, 'an inbox listener failed'));
    }
  }

  /** GET /inbox: one's newest events (a page), older than `before` when given, and how many are unread. */
  async list(user: User, before: number | undefined): Promise<Inbox> {
    const [events, unread] = await Promise.all([
      this.inbox.list(user.id, before, limits.inbox.pageSize),
      this.inbox.unreadCount(user.id),
    ]);
    return { unread, events };
  }

  /** POST /inbox/read: marks one's own events read (ids of others' events are ignored); answers the unread count. */
  async read(user: User, body: InboxReadBody): Promise<{ unread: number }> {
    await this.inbox.markRead(user.id, 'all' in body ? 'all' : body.ids);
    return { unread: await this.inbox.unreadCount(user.id) };
  }
}
