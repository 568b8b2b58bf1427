import { containsPattern, limits, type Where } from '@reskin/contract';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ListParams } from '../../lib/api-client';

/** The pager's page sizes; the largest is the most rows a list endpoint answers at once. */
export const pageSizes = [25, 50, limits.filterLimitMax] as const;

export type SortDirection = 'asc' | 'desc';

export interface ListSort<C extends string> {
  column: C;
  direction: SortDirection;
}

export interface ListOptions<C extends string> {
  /** The columns the search text is looked for in (any of them matches). */
  searchColumns: readonly string[];
  /** The columns a header may sort by; any other `sort` in the URL is ignored. */
  sortColumns: readonly C[];
  /** A screen's own condition, and-ed with the search (for example a filter checkbox). */
  where?: Where;
}

/** A list screen's search, sort and page, kept in the URL, and the search query they make. */
export interface ListState<C extends string = string> {
  search: string;
  sort: ListSort<C> | null;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** What the list endpoint is asked: where, order, limit and skip. */
  params: ListParams;
  setSearch: (text: string) => void;
  /** Sorts by `column` ascending, or flips the direction when the list is sorted by it already. */
  toggleSort(column: C): void; // a method, so a ListState<'name'> is a ListState
  /** `replace` changes the URL without a new history entry. */
  setPage: (page: number, replace?: boolean) => void;
  setPageSize: (size: number) => void;
}

/** The URL query keys (`?q=mario&sort=name.desc&page=2&size=50`); a screen's own filter key drops `page` when it changes. */
export const listQueryKeys = { search: 'q', sort: 'sort', page: 'page', size: 'size' } as const;

const positiveInt = (raw: string | null) => (raw !== null && /^\d+$/.test(raw) ? Number(raw) : 0);

function readSort<C extends string>(raw: string | null, columns: readonly C[]): ListSort<C> | null {
  const [column, direction] = (raw ?? '').split('.');
  const known = columns.find((name) => name === column);
  if (!known || (direction !== 'asc' && direction !== 'desc')) return null;
  return { column: known, direction };
}

/** The search query of a list's state: `like` on each search column, the sort, and the page's limit and skip. */
export function listParams(
  { search, sort, page, pageSize }: Pick<ListState, 'search' | 'sort' | 'page' | 'pageSize'>,
  searchColumns: readonly string[],
  where?: Where,
): ListParams {
  const matches = searchColumns.map((column) => ({ [column]: { like: containsPattern(search) } }));
  const conditions = [...(search === '' ? [] : [matches.length === 1 ? matches[0] : { or: matches }]), where];
  const present = conditions.filter((condition): condition is Where => condition !== undefined);
  return {
    ...(present.length > 0 && { where: present.length === 1 ? present[0] : { and: present } }),
    ...(sort && { order: `${sort.column} ${sort.direction.toUpperCase()}` }),
    limit: pageSize,
    skip: (page - 1) * pageSize,
  };
}

/**
 * The state of a list screen in the URL query string, so a reload, a pasted link or Back shows the same page.
 * A new search, sort or page size starts again at page 1. Other query keys (such as `gameId`) are kept.
 */
export function useListParams<C extends string>({
  searchColumns,
  sortColumns,
  where,
}: ListOptions<C>): ListState<C> {
  const [query, setQuery] = useSearchParams();
  const search = query.get(listQueryKeys.search) ?? '';
  const sort = readSort(query.get(listQueryKeys.sort), sortColumns);
  const page = Math.max(1, positiveInt(query.get(listQueryKeys.page)));
  const size = positiveInt(query.get(listQueryKeys.size));
  const pageSize = pageSizes.find((allowed) => allowed === size) ?? pageSizes[0];

  // Kept the same between renders (while the URL stays), so effects may depend on them.
  const { update, ...setters } = useMemo(() => {
    /** Sets (or with '' removes) the given keys; every change but a page turn goes back to page 1. */
    const update = (changes: Partial<Record<keyof typeof listQueryKeys, string>>, replace = false) =>
      setQuery(
        (current) => {
          const next = new URLSearchParams(current);
          if (changes.page === undefined) next.delete(listQueryKeys.page);
          for (const [name, value] of Object.entries(changes)) {
            const key = listQueryKeys[name as keyof typeof listQueryKeys];
            if (value === '' || (name === 'page' && value === '1')) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace },
      );
    return {
      update,
      setSearch: (text: string) => update({ search: text }, true),
      setPage: (next: number, replace = false) => update({ page: String(next) }, replace),
      setPageSize: (next: number) => update({ size: String(next) }),
    };
  }, [setQuery]);

  const state = { search, sort, page, pageSize };
  return {
    ...state,
    ...setters,
    params: listParams(state, searchColumns, where),
    toggleSort: (column) =>
      update({ sort: `${column}.${sort?.column === column && sort.direction === 'asc' ? 'desc' : 'asc'}` }),
  };
}
