import type { Kysely, CreateTableBuilder } from 'kysely';

/**
 * Mail (decision 0035):
 * - `mailOutbox`: every mail to send, persisted before it is sent, so a mail server that is down (or a server that
 *   restarts) loses none. Any app server's worker claims due rows with a conditional update (PostgreSQL: FOR UPDATE
 *   SKIP LOCKED), so two servers never send one row at once; a failed attempt sets `nextAttemptAt` (exponential
 *   back-off). A sent row is deleted (its text holds the link).
 * - `userTokens`: the mailed links' tokens (verify an address, reset a password), only their SHA-256 kept, with the
 *   address they were sent to, their end and when they were used (each works once).
 * - `users.inboxMail`: how the user gets the inbox's events by mail ('each', 'digest', 'never').
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  const withId = (table: CreateTableBuilder<string, never>): CreateTableBuilder<string, 'id'> =>
    dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId(db.schema.createTable('mailOutbox'))
    .addColumn('toAddress', 'varchar(320)', (c) => c.notNull())
    .addColumn('subject', 'varchar(500)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nextAttemptAt', timestamp, (c) => c.notNull())
    .addColumn('claimedUntil', timestamp)
    .addColumn('lastError', 'varchar(500)')
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailOutbox_due').on('mailOutbox').columns(['nextAttemptAt']).execute();
  await withId(db.schema.createTable('userTokens'))
    .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('tokenHash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('expiresAt', timestamp, (c) => c.notNull())
    .addColumn('usedAt', timestamp)
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('userTokens_user').on('userTokens').columns(['userId', 'purpose']).execute();
  await db.schema
    .alterTable('users')
    .addColumn('inboxMail', 'varchar(10)', (c) => c.notNull().defaultTo('each'))
    .execute();
}
