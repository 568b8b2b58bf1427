import { useEffect, useId, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import Pagination from 'react-bootstrap/Pagination';
import { useNavigation } from 'react-router';
import { navigationInFlight } from '../../lib/navigation-in-flight';
import { pageSizes, type ListState } from './use-list-params';

/** How long the search waits after the last keystroke before it asks the server. */
export const searchDebounceMs = 300;

/** What a list shows when the search matches nothing (its spec empty text is for a list without rows). */
export const noResultsText = (search: string) => `No results for "${search}".`;

/**
 * A list's title with its total, 'Registered users (12)' (titles read '(0)' while a list loaded). The
 * total is undefined until the first answer, and the title then shows none rather than a false 0; while a new
 * search, sort or page is asked, the list queries keep the previous answer (keepPreviousData), so its total stays.
 */
export const titleWithTotal = (title: string, total: number | undefined) =>
  total === undefined ? title : `${title} (${total})`;

/** The search box above a list: `type="search"` with a visible label, debounced into the URL. */
export function ListSearch({ list, label }: { list: ListState; label: string }) {
  const id = useId();
  const [text, setText] = useState(list.search);
  // Back, or a link, can change the search in the URL; the box follows it.
  const [shown, setShown] = useState(list.search);
  if (shown !== list.search) {
    setShown(list.search);
    setText(list.search);
  }

  const { search, setSearch } = list;
  // While a link the user followed loads its screen (a lazy route), the list is being left: a search written into
  // the URL then would be a navigation of its own and take the user back to the list (seen in a browser test that
  // clicked a row's Files within the debounce of its search).
  const leaving = useNavigation().state !== 'idle';
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === search || leaving) return;
    // Read again when the timer fires: a navigation may have started since the last render (navigation-in-flight.ts).
    const timer = window.setTimeout(() => {
      if (!navigationInFlight()) setSearch(wanted);
    }, searchDebounceMs);
    return () => window.clearTimeout(timer);
  }, [text, search, setSearch, leaving]);

  return (
    <Form.Group controlId={id} className="mb-3" style={{ maxWidth: '24rem' }}>
      <Form.Label className="visually-hidden">{label}</Form.Label>
      <Form.Control
        type="search"
        placeholder={label}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </Form.Group>
  );
}

/** A column header that sorts the list by `column`: a click sorts ascending, the next one descending. */
export function SortHeader<C extends string>({
  list,
  column,
  children,
  width,
}: {
  list: Pick<ListState<C>, 'sort' | 'toggleSort'>;
  column: C;
  children: ReactNode;
  /** The column's width (CSS), when its table gives one. */
  width?: string;
}) {
  const direction = list.sort?.column === column ? list.sort.direction : null;
  return (
    <th
      aria-sort={direction === null ? undefined : direction === 'asc' ? 'ascending' : 'descending'}
      style={width ? { width } : undefined}
    >
      <button
        type="button"
        className="btn btn-link p-0 fw-bold text-reset text-decoration-none text-nowrap"
        onClick={() => list.toggleSort(column)}
      >
        {children}
        <span aria-hidden="true" className={direction === null ? 'text-body-tertiary' : undefined}>
          {' '}
          {direction === 'desc' ? '▼' : direction === 'asc' ? '▲' : '↕'}
        </span>
      </button>
    </th>
  );
}

/** The pager below a list: the true number of matching rows, previous/next, and the page size. */
export function ListPager({ list, total }: { list: ListState; total: number }) {
  const id = useId();
  const pageCount = Math.max(1, Math.ceil(total / list.pageSize));
  const { page, setPage } = list;
  // A page past the end (rows deleted, an old link) shows the last page instead.
  useEffect(() => {
    if (page > pageCount) setPage(pageCount, true);
  }, [page, pageCount, setPage]);

  return (
    <div className="d-flex flex-wrap align-items-center gap-3 mt-3">
      <span>
        {total} {total === 1 ? 'item' : 'items'}
      </span>
      <nav aria-label="Pages">
        <Pagination className="mb-0">
          <Pagination.First disabled={page <= 1} onClick={() => setPage(1)} />
          <Pagination.Prev disabled={page <= 1} onClick={() => setPage(page - 1)} />
          <li className="page-item">
            <span className="page-link text-body" aria-current="page">
              Page {page} of {pageCount}
            </span>
          </li>
          <Pagination.Next disabled={page >= pageCount} onClick={() => setPage(page + 1)} />
          <Pagination.Last disabled={page >= pageCount} onClick={() => setPage(pageCount)} />
        </Pagination>
      </nav>
      <Form.Group controlId={id} className="d-flex align-items-center gap-2">
        <Form.Label className="mb-0 text-nowrap">Page size</Form.Label>
        <Form.Select
          size="sm"
          value={list.pageSize}
          onChange={(event) => list.setPageSize(Number(event.target.value))}
        >
          {pageSizes.map((size) => (
            <option key={size}>{size}</option>
          ))}
        </Form.Select>
      </Form.Group>
    </div>
  );
}

/** A list's empty text: the spec's when the list has no rows at all, "No results" when a search matched none. */
export function ListEmpty({ list, text }: { list: ListState; text: string }) {
  return <p className="mb-0">{list.search === '' ? text : noResultsText(list.search)}</p>;
}
