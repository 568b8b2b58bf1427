import {
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { Fragment, useMemo, useState, type HTMLAttributes, type Key, type ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { SpacerRow, useVirtualRows } from '../ui/virtual-grid';
import { ListPager, SortHeader } from './list-controls';
import type { ListSort, ListState, SortDirection } from './use-list-params';

/**
 * The one list component (decision 0056): columns, sorting (the server's, through the list's URL state, or the
 * list's own), the empty text, the pager and, for long lists, the virtualiser of decision 0041. TanStack Table holds
 * the columns and the sort; the markup stays Bootstrap's table, the headers SortHeader's.
 */

/** What a sortable table needs of its sort: the current one and a header's click (a ListState has both). */
export interface TableSort<C extends string = string> {
  sort: ListSort<C> | null;
  toggleSort(column: C): void;
}

export interface DataColumn<T> {
  /** The column's id; for a sortable column also the column it sorts by (a server search column). */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The header sorts the list by this column. */
  sortable?: boolean;
  /** How a list sorted here (not by the server) orders two rows by this column, ascending. */
  compare?: (a: T, b: T) => number;
  /** The cell's attributes (a class, a test id). */
  cellProps?: HTMLAttributes<HTMLTableCellElement> & { 'data-testid'?: string };
}

type RowAttributes = HTMLAttributes<HTMLTableRowElement> &
  Record<`data-${string}`, string | number | undefined>;

interface DataTableProps<T extends RowData> {
  columns: readonly DataColumn<T>[];
  data: readonly T[];
  getRowKey: (row: T) => Key;
  /** The sort shown in the headers; with `sortHere` the table sorts the rows itself, else the server has. */
  sort?: TableSort;
  sortHere?: boolean;
  /** The row's own attributes (`data-*-id`, a highlight class). */
  rowProps?: (row: T) => RowAttributes;
  /** A row drawn by the caller instead of the columns' cells (a row being edited in place). */
  renderRow?: (row: T) => ReactNode | undefined;
  /** Rows of the caller's under a row, measured with it (a sheet's replaced frames). */
  rowDetail?: (row: T) => ReactNode;
  /** Only the rows in view are rendered, scrolled with the page (decision 0041). */
  virtual?: {
    estimateSize: (row: T) => number;
    /** The row a link names, brought into view once (in the list's order, sorted or not). */
    scrollTo?: ((row: T) => boolean) | null;
  };
  /** Shown instead of the table when there is no row; null shows nothing (the list still loads). */
  empty?: ReactNode;
  /** The pager below the rows, for a list the server pages. */
  pager?: { list: ListState; total: number };
  size?: 'sm';
  hover?: boolean;
  'aria-label'?: string;
}

const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel() });

export function DataTable<T extends RowData>({
  columns,
  data,
  getRowKey,
  sort,
  sortHere = false,
  rowProps,
  renderRow,
  rowDetail,
  virtual,
  empty,
  pager,
  size,
  hover = true,
  'aria-label': label,
}: DataTableProps<T>) {
  const columnDefs = useMemo(
    () =>
      columns.map((column): ColumnDef<typeof features, T> => ({
        id: column.id,
        accessorFn: (row: T) => row,
        enableSorting: column.sortable === true,
        ...(column.compare && { sortFn: (a, b) => column.compare!(a.original, b.original) }),
      })),
    [columns],
  );
  const sorting: SortingState = sort?.sort
    ? [{ id: sort.sort.column, desc: sort.sort.direction === 'desc' }]
    : [];
  const table = useTable({
    features,
    columns: columnDefs,
    data: data as T[],
    state: { sorting },
    manualSorting: !sortHere,
  });
  const rows = table.getRowModel().rows.map((row) => row.original);

  const pagerShown = pager && pager.total > 0 && <ListPager list={pager.list} total={pager.total} />;
  if (data.length === 0)
    return (
      <>
        {empty}
        {pagerShown}
      </>
    );

  const renderRows = (row: T) => {
    const own = renderRow?.(row);
    return (
      <>
        {own !== undefined ? (
          own
        ) : (
          <tr {...rowProps?.(row)}>
            {columns.map((column) => (
              <td key={column.id} {...column.cellProps}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        )}
        {rowDetail?.(row)}
      </>
    );
  };
  const shell = (body: ReactNode) => (
    <Table responsive hover={hover} size={size} className="mb-0 align-middle" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) =>
            column.sortable && sort ? (
              <SortHeader key={column.id} list={sort} column={column.id}>
                {column.header}
              </SortHeader>
            ) : (
              <th key={column.id}>{column.header}</th>
            ),
          )}
        </tr>
      </thead>
      {body}
    </Table>
  );

  return (
    <>
      {virtual ? (
        <VirtualBodies
          rows={rows}
          getRowKey={getRowKey}
          virtual={virtual}
          colSpan={columns.length}
          renderRows={renderRows}
          shell={shell}
        />
      ) : (
        shell(
          <tbody>
            {rows.map((row) => (
              <Fragment key={getRowKey(row)}>{renderRows(row)}</Fragment>
            ))}
          </tbody>,
        )
      )}
      {pagerShown}
    </>
  );
}

interface VirtualBodiesProps<T extends RowData> {
  rows: readonly T[];
  getRowKey: (row: T) => Key;
  virtual: NonNullable<DataTableProps<T>['virtual']>;
  colSpan: number;
  renderRows: (row: T) => ReactNode;
  shell: (body: ReactNode) => ReactNode;
}

/** The rows in view only, scrolled with the page (useVirtualRows, decision 0041), between spacer rows. */
function VirtualBodies<T extends RowData>({
  rows,
  getRowKey,
  virtual,
  colSpan,
  renderRows,
  shell,
}: VirtualBodiesProps<T>) {
  const {
    containerRef,
    rows: inView,
    measure,
    paddingTop,
    paddingBottom,
  } = useVirtualRows({
    count: rows.length,
    estimateSize: (index) => virtual.estimateSize(rows[index]),
    inBox: false,
    getItemKey: (index) => (index < rows.length ? getRowKey(rows[index] as T) : index),
    scrollToIndex: virtual.scrollTo ? rows.findIndex((row) => virtual.scrollTo!(row)) : null,
  });
  return (
    <div ref={containerRef}>
      {shell(
        <>
          <tbody>
            <SpacerRow height={paddingTop} colSpan={colSpan} />
          </tbody>
          {inView.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            // A row and the rows under it are one measured <tbody>, so they come and go together.
            return (
              <tbody key={item.key} data-index={item.index} ref={measure}>
                {renderRows(row)}
              </tbody>
            );
          })}
          <tbody>
            <SpacerRow height={paddingBottom} colSpan={colSpan} />
          </tbody>
        </>,
      )}
    </div>
  );
}

/** A sort the list keeps itself (not in the URL): the first direction of each column, then a click flips it. */
export function useLocalSort<C extends string>(initial: ListSort<C>): TableSort<C> {
  const [sort, setSort] = useState(initial);
  return {
    sort,
    toggleSort: (column: C) =>
      setSort((current) => ({
        column,
        direction: (current.column === column && current.direction === 'asc'
          ? 'desc'
          : 'asc') as SortDirection,
      })),
  };
}
