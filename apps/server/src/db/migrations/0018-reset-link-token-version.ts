import type { Kysely } from 'kysely';

/**
 * A mailed link remembers the account's token version when it was made (decision 0044), as download tickets do
 * (decision 0013): a reset link whose account has since changed its password or email, been reset by an admin or
 * suspended no longer works. Links from before this migration count as version 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('userTokens')
    .addColumn('tokenVersion', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
