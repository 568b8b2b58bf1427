import type { Kysely } from 'kysely';

/**
 * A per-user token version: session and play tokens carry it, and a token whose version differs from
 * the user's is refused. A password change, an admin's password reset, a role change and a suspension add one,
 * ending every earlier session of that user at once (decision 0013). Existing users start at 0, the version a
 * token without one counts as.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('tokenVersion', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
