import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { errorCodes, limits, type SearchFilter } from '@reskin/contract';
import { badRequest } from '../lib/errors';
import type { Dialect } from '../db/database';

export type ColumnType = 'number' | 'string' | 'boolean' | 'date';

/** A column worked out per row by SQL (a correlated subquery over other tables) instead of read from the table. */
export interface ComputedColumn {
  type: ColumnType;
  /** The value for one row of the entity's table; it may refer to that row as `table.column`. */
  expression: RawBuilder<unknown>;
}

/** The columns of one entity that a search query may name, with their types. Nothing else can be reached. */
export interface SearchableEntity {
  /** The table, used to qualify column references. Its `id` column is every list's last sort key. */
  table: string;
  columns: Record<string, ColumnType>;
  /**
   * Columns computed from other tables (a user-game's version counts, its user's username): a query may name
   * them in where, fields and order like stored ones, and the repository selects them into each row.
   */
  computed?: Record<string, ComputedColumn>;
}

export interface OrderTerm {
  column: string;
  direction: 'asc' | 'desc';
  /** The column or computed expression to sort by. */
  expression: RawBuilder<unknown>;
}

/** A search query, checked against an entity's whitelist and ready for a repository to apply. */
export interface CompiledFilter {
  where: Expression<SqlBool> | undefined;
  /** The requested fields (whitelisted), or undefined when the query names none: the whole object. */
  fields: string[] | undefined;
  /** The requested order, then the table's id (ascending) so rows that tie keep one order and paging is stable. */
  order: OrderTerm[];
  limit: number;
  offset: number;
  /** Relation names asked for with `include`, already checked against the allowed ones. */
  include: string[];
}

const comparisons = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
type Comparison = keyof typeof comparisons;

const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;

/** A date string as ISO 8601 in UTC, or undefined when it is no date (or outside the years 0-9999). */
function isoDate(text: string): string | undefined {
  const time = Date.parse(text);
  if (Number.isNaN(time)) return undefined;
  const iso = new Date(time).toISOString();
  return /^\d{4}-/.test(iso) ? iso : undefined;
}

function invalid(message: string): never {
  throw badRequest(message, errorCodes.invalidFilter, [{ path: '/filter', code: 'invalid_filter', message }]);
}

/**
 * Compiles the LoopBack 4 style filter of DESIGN.md ("API conventions") for one entity: where (eq, neq, gt,
 * gte, lt, lte, inq, nin, between, like, nlike, ilike, and, or), fields, order, limit, skip/offset, include.
 * Any column or relation outside the whitelist is a 400 INVALID_FILTER, so the query cannot reach
 * password hashes or other tables.
 */
export function compileFilter(
  filter: SearchFilter,
  entity: SearchableEntity,
  dialect: Dialect,
  allowedRelations: readonly string[] = [],
): CompiledFilter {
  const like = dialect === 'postgres' ? 'ilike' : 'like';

  function column(name: string): { ref: RawBuilder<unknown>; type: ColumnType } {
    // Own properties only: "constructor" or "toString" are no columns.
    const computed =
      entity.computed && Object.hasOwn(entity.computed, name) ? entity.computed[name] : undefined;
    if (computed) return { ref: computed.expression, type: computed.type };
    const type = Object.hasOwn(entity.columns, name) ? entity.columns[name] : undefined;
    if (!type) invalid(`Unknown or forbidden column "${name}".`);
    return { ref: sql.ref(`${entity.table}.${name}`), type };
  }

  function value(name: string, type: ColumnType, raw: unknown): string | number {
    if (type === 'boolean') {
      if (raw === true || raw === 1) return 1;
      if (raw === false || raw === 0) return 0;
      return invalid(`Column "${name}" needs true or false.`);
    }
    if (type === 'number') {
      // Every number column is a 32-bit integer; anything else would make PostgreSQL fail (a 500).
      const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof number === 'number' && Number.isInteger(number) && number >= INT_MIN && number <= INT_MAX)
        return number;
      return invalid(`Column "${name}" needs a whole number.`);
    }
    if (type === 'date') {
      // ISO 8601 text, as stored on SQLite and understood by PostgreSQL; unparsable dates are refused.
      const iso = typeof raw === 'string' ? isoDate(raw) : undefined;
      return iso ?? invalid(`Column "${name}" needs a date (ISO 8601).`);
    }
    if (typeof raw === 'string') return raw;
    if (typeof raw === 'number') return String(raw);
    return invalid(`Column "${name}" needs a string.`);
  }

  function list(name: string, type: ColumnType, raw: unknown): (string | number)[] {
    if (!Array.isArray(raw) || raw.length === 0) invalid(`Column "${name}" needs a non-empty list.`);
    if (raw.length > limits.filterWhere.listMax) {
      invalid(`The list of "${name}" has more than ${limits.filterWhere.listMax} values.`);
    }
    return raw.map((item) => value(name, type, item));
  }

  /**
   * Comparisons compiled so far in this where (a column's plain value is one, each operator on a column one);
   * more than the contract's limit is a 400, not a huge SQL statement.
   */
  let conditions = 0;
  function count(): void {
    conditions += 1;
    if (conditions > limits.filterWhere.conditionsMax) {
      invalid(`The where clause has more than ${limits.filterWhere.conditionsMax} conditions.`);
    }
  }

  function condition(name: string, spec: unknown): Expression<SqlBool> {
    const { ref, type } = column(name);
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) count();
    if (spec === null) return sql<SqlBool>`${ref} is null`;
    if (typeof spec !== 'object' || Array.isArray(spec)) {
      return sql<SqlBool>`${ref} = ${value(name, type, spec)}`;
    }
    const parts = Object.entries(spec as Record<string, unknown>).map(
      ([operator, operand]): Expression<SqlBool> => {
        count();
        if (Object.hasOwn(comparisons, operator)) {
          if (operand === null && (operator === 'eq' || operator === 'neq')) {
            return operator === 'eq' ? sql<SqlBool>`${ref} is null` : sql<SqlBool>`${ref} is not null`;
          }
          return sql<SqlBool>`${ref} ${sql.raw(comparisons[operator as Comparison])} ${value(name, type, operand)}`;
        }
        switch (operator) {
          case 'like':
          case 'ilike':
          case 'nlike': {
            if (type !== 'string')
              return invalid(`"${operator}" works on text columns only, not on "${name}".`);
            if (typeof operand !== 'string')
              return invalid(`"${operator}" on "${name}" needs a pattern string.`);
            if (operand.length > limits.filterWhere.patternMax) {
              return invalid(
                `The pattern of "${operator}" on "${name}" is longer than ${limits.filterWhere.patternMax} characters.`,
              );
            }
            // An odd run of backslashes at the end escapes nothing: PostgreSQL would fail the query (a 500).
            if (/\\*$/.exec(operand)![0].length % 2 === 1) {
              return invalid(
                `The pattern of "${operator}" on "${name}" ends with a lone escape character (\\).`,
              );
            }
            const not = operator === 'nlike' ? sql.raw('not ') : sql.raw('');
            // Backslash escapes % and _ on both databases (PostgreSQL's default; SQLite has none unless named),
            // so a pattern made with the contract's escapeLike() matches the same rows on either.
            return sql<SqlBool>`${ref} ${not}${sql.raw(like)} ${operand} escape ${sql.lit('\\')}`;
          }
          case 'inq':
            return sql<SqlBool>`${ref} in (${sql.join(list(name, type, operand))})`;
          case 'nin':
            return sql<SqlBool>`${ref} not in (${sql.join(list(name, type, operand))})`;
          case 'between': {
            const bounds = list(name, type, operand);
            if (bounds.length !== 2) return invalid(`"between" on "${name}" needs two values.`);
            return sql<SqlBool>`${ref} between ${bounds[0]} and ${bounds[1]}`;
          }
          default:
            return invalid(`Unknown operator "${operator}" on "${name}".`);
        }
      },
    );
    if (parts.length === 0) invalid(`No condition given for "${name}".`);
    return all(parts);
  }

  function all(parts: Expression<SqlBool>[]): Expression<SqlBool> {
    return parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
  }

  function where(clause: unknown, depth: number): Expression<SqlBool> | undefined {
    if (depth > 8) invalid('The where clause is nested too deeply.');
    if (typeof clause !== 'object' || clause === null || Array.isArray(clause))
      invalid('where must be an object.');
    const parts: Expression<SqlBool>[] = [];
    for (const [key, spec] of Object.entries(clause)) {
      if (key === 'and' || key === 'or') {
        if (!Array.isArray(spec) || spec.length === 0)
          invalid(`"${key}" needs a non-empty list of conditions.`);
        if (spec.length > limits.filterWhere.conditionsMax) {
          invalid(`The where clause has more than ${limits.filterWhere.conditionsMax} conditions.`);
        }
        const inner = spec.map((item) => where(item, depth + 1)).filter((e): e is Expression<SqlBool> => !!e);
        if (inner.length > 0) {
          parts.push(key === 'and' ? all(inner) : sql<SqlBool>`(${sql.join(inner, sql` or `)})`);
        }
      } else {
        parts.push(condition(key, spec));
      }
    }
    return parts.length === 0 ? undefined : all(parts);
  }

  function fields(): string[] | undefined {
    const requested = filter.fields;
    const every = [...Object.keys(entity.columns), ...Object.keys(entity.computed ?? {})];
    if (!requested) return undefined;
    if (Array.isArray(requested)) {
      requested.forEach((name) => column(name));
      return requested.length > 0 ? [...new Set(requested)] : undefined;
    }
    const entries = Object.entries(requested);
    entries.forEach(([name]) => column(name));
    const included = entries.filter(([, on]) => on).map(([name]) => name);
    if (included.length > 0) return included;
    const excluded = new Set(entries.filter(([, on]) => !on).map(([name]) => name));
    return every.filter((name) => !excluded.has(name));
  }

  function order(): OrderTerm[] {
    const terms =
      filter.order === undefined ? [] : Array.isArray(filter.order) ? filter.order : [filter.order];
    const requested = terms.map((term): OrderTerm => {
      const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?\s*$/i.exec(term);
      if (!match) return invalid(`Order "${term}" must be "<column> ASC" or "<column> DESC".`);
      const direction = (match[2]?.toLowerCase() ?? 'asc') as 'asc' | 'desc';
      return { column: match[1]!, direction, expression: column(match[1]!).ref };
    });
    return [...requested, { column: 'id', direction: 'asc', expression: sql.ref(`${entity.table}.id`) }];
  }

  function include(): string[] {
    return (filter.include ?? []).map((item) => {
      const relation = typeof item === 'string' ? item : item.relation;
      if (!allowedRelations.includes(relation)) invalid(`Unknown relation "${relation}".`);
      return relation;
    });
  }

  return {
    where: filter.where ? where(filter.where, 0) : undefined,
    fields: fields(),
    order: order(),
    limit: filter.limit ?? limits.filterLimitDefault,
    offset: filter.skip ?? filter.offset ?? 0,
    include: include(),
  };
}

/** Keeps only the requested fields of a row (a search query's `fields`); all of it when none were named. */
export function pickFields<T extends object>(row: T, fields: readonly string[] | undefined): Partial<T> {
  if (!fields) return row;
  const picked: Partial<T> = {};
  for (const name of fields) {
    if (name in row) (picked as Record<string, unknown>)[name] = (row as Record<string, unknown>)[name];
  }
  return picked;
}
