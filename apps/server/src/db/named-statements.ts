import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** SQL texts given a statement name at most; further texts run unnamed (parsed and planned each time). */
const maxNamedStatements = 500;
/** A text is named on its second use: a query built once (a rare search) never takes a name. */
const usesBeforeNaming = 2;
/** Texts counted while not yet named; the count starts over when this many are waiting. */
const maxCountedTexts = 5000;

/** PostgreSQL's answer when a named statement's result columns changed since it was prepared (a migration). */
function isChangedResultType(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '0A000' && /cached plan must not change result type/.test(message ?? '');
}

/** pg's result is what Kysely's pool type describes (its command is a string there). */
const asResult = <R>(result: pg.QueryResult) => result as unknown as PostgresQueryResult<R>;

/**
 * PostgreSQL's pool as Kysely's dialect sees it, with the app's frequent queries run as named prepared statements
 *: each connection parses and plans such a text once and then only binds and executes it, instead of
 * receiving, parsing and planning the whole text on every request (My Games' query was 2.6 ms of planning for
 * 1.3 ms of execution). A text is named on its second use, up to maxNamedStatements names, so the statements each
 * connection keeps stay bounded; Kysely sends values as parameters, so a query's text is the same for every user.
 *
 * A table changed by a migration on another server (a rolling update) makes PostgreSQL refuse a statement whose
 * result columns changed; the text then gets a new name (prepared again) and, outside a transaction, runs again.
 */
export function withNamedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const uses = new Map<string, number>();
  let nextName = 0;

  const nameOf = (text: string): string | undefined => {
    const name = names.get(text);
    if (name !== undefined || names.size >= maxNamedStatements) return name;
    const used = (uses.get(text) ?? 0) + 1;
    if (used < usesBeforeNaming) {
      if (uses.size >= maxCountedTexts) uses.clear();
      uses.set(text, used);
      return undefined;
    }
    uses.delete(text);
    const named = `reskin_${nextName++}`;
    names.set(text, named);
    return named;
  };

  return {
    connect: async (): Promise<PostgresPoolClient> => {
      const client = await pool.connect();
      let inTransaction = false;
      const run = async <R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>> => {
        const name = nameOf(text);
        if (name === undefined) return asResult<R>(await client.query(text, values as unknown[]));
        try {
          return asResult<R>(await client.query({ name, text, values: values as unknown[] }));
        } catch (error) {
          if (!isChangedResultType(error) || names.get(text) !== name) throw error;
          names.set(text, `reskin_${nextName++}`);
          // In a transaction the failed statement has aborted it: the transaction's caller sees the error.
          if (inTransaction) throw error;
          return run(text, values);
        }
      };
      return {
        query: ((textOrCursor: string | PostgresCursor<unknown>, values?: readonly unknown[]) => {
          if (typeof textOrCursor !== 'string')
            return client.query(textOrCursor as unknown as pg.Submittable);
          // Kysely opens and ends its transactions with these plain statements on the connection it lends.
          if (/^(begin|start transaction)\b/i.test(textOrCursor)) inTransaction = true;
          else if (/^(commit|rollback)$/i.test(textOrCursor)) inTransaction = false;
          return run(textOrCursor, values ?? []);
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}
