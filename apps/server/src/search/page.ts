import { sql, type SelectQueryBuilder } from 'kysely';
import type { FastifyReply } from 'fastify';
import { totalCountHeader } from '@reskin/contract';
import type { CompiledFilter } from './filter';

/** One page of a list and how many rows match its filter in all (whatever the limit and skip). */
export interface Page<T> {
  rows: T[];
  total: number;
}

/**
 * Runs a list query for one page of a compiled filter: its where, its order (which ends with the table's id,
 * so rows that tie keep one order and no row shows on two pages or none; NULLs first when ascending, last
 * when descending, on both databases), limit and offset; and counts the
 * rows matching the where with the same query. `query` selects the rows (with any computed columns) and
 * has no where, order or paging of its own.
 */
export async function listPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  filter: CompiledFilter,
): Promise<Page<O>> {
  const matching = filter.where ? query.where(filter.where) : query;
  let ordered = matching;
  // NULLs sort as the smallest value on both databases: SQLite's rule, the opposite of PostgreSQL's.
  for (const { expression, direction } of filter.order) {
    ordered = ordered.orderBy(expression, (item) =>
      direction === 'asc' ? item.asc().nullsFirst() : item.desc().nullsLast(),
    );
  }
  const rows = await ordered.limit(filter.limit).offset(filter.offset).execute();
  // Kysely cannot type a selection on a query generic in its tables, hence the cast.
  const counted = (await matching
    .clearSelect()
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow()) as { total: number };
  return { rows, total: Number(counted.total) };
}

/** A page as a list answer: the rows as the body, the total in X-Total-Count (readable by browser code too). */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  reply.header(totalCountHeader, page.total);
  reply.header('Access-Control-Expose-Headers', totalCountHeader);
  return page.rows;
}
