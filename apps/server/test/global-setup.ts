import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { schemaDropLock } from '../src/db/database';

/**
 * The PostgreSQL schemas of one run of the suite are named `test_<run>_<random>` and dropped here, once, after
 * every file has finished. Dropping a schema while another file's app starts would break that start: Kysely's
 * migrator reads the catalogue of every schema, and a schema that vanishes meanwhile makes it fail.
 */
export default function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  process.env.RESKIN_TEST_RUN = run;
  return async () => {
    if (process.env.TEST_DB !== 'postgres') return;
    const client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select nspname as name from pg_namespace where nspname like $1',
        [`test\\_${run}\\_%`],
      );
      // Alone (no migration of any run reading the catalogue meanwhile): src/db/database.ts schemaDropLock.
      await client.query('select pg_advisory_lock($1)', [schemaDropLock]);
      for (const { name } of rows) await client.query(`drop schema "${name}" cascade`);
      await client.query('select pg_advisory_unlock($1)', [schemaDropLock]);
    } finally {
      await client.end();
    }
  };
}
