import type { Kysely } from 'kysely';

/**
 * The outbox ranks and gathers mail (decision 0044):
 * - `priority`: 0 for transactional mail (reset, verification), 1 for notifications (inbox events, digests); a
 *   worker claims the lowest first, so a reset never waits behind a queue of notifications.
 * - `recipientId` and `eventIds`: a notification row is one user's inbox events (a JSON array of their ids); events
 *   that come while it waits join it instead of making mails of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mailOutbox')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('mailOutbox').addColumn('recipientId', 'integer').execute();
  await db.schema.alterTable('mailOutbox').addColumn('eventIds', 'text').execute();
  await db.schema.createIndex('mailOutbox_recipient').on('mailOutbox').columns(['recipientId']).execute();
}
