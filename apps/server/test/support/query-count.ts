import type { TestApp } from '../helpers';

type Executor = { executeQuery: (...args: unknown[]) => Promise<{ rows: unknown[] }> };

/**
 * Counts every SQL query the app runs (in transactions too) and the transactions it opens while `work` runs:
 * Kysely's executors all run their queries through the one executeQuery of their base class, and every
 * transaction starts at db.transaction(); both are wrapped here for the duration of `work`.
 */
export async function countQueries(
  t: TestApp,
  work: () => Promise<void>,
): Promise<{ queries: number; rows: number; transactions: number }> {
  const { db } = t.database;
  let owner: object | null = db.getExecutor();
  while (owner && !Object.prototype.hasOwnProperty.call(owner, 'executeQuery'))
    owner = Object.getPrototypeOf(owner) as object | null;
  if (!owner) throw new Error("Kysely's executeQuery was not found");
  const base = owner as Executor;
  const original = base.executeQuery;
  const counted = { queries: 0, rows: 0, transactions: 0 };
  base.executeQuery = async function (this: unknown, ...args: unknown[]) {
    counted.queries += 1;
    const result = await original.apply(this, args);
    counted.rows += result.rows.length;
    return result;
  };
  const transaction = db.transaction;
  db.transaction = function (this: typeof db) {
    counted.transactions += 1;
    return transaction.call(this);
  };
  try {
    await work();
  } finally {
    base.executeQuery = original;
    db.transaction = transaction;
  }
  return counted;
}
