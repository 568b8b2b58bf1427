import {
  createSortedRowModel,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { Fragment, useMemo, useState, type HTMLAttributes, type Key, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import BootstrapRow from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { Loading } from '../ui/loading';
import { cardColumns, VirtualGrid } from '../ui/virtual-grid';
import { SelectAllBox, SelectBox, VirtualBodies } from './data-table-parts';
import { ListEmpty, ListPager, SortHeader, titleWithTotal } from './list-controls';
import type { ListSort, ListState, SortDirection } from './use-list-params';

export type { RowSelectionState } from '@tanstack/react-table';

/**
 * The one list component (decision 0056): the title with its total, columns, sorting (the server's, through the
 * list's URL state, or the list's own), row selection, the empty text, the pager and, for long lists, the
 * virtualiser of decision 0041; rows as a table's rows or as cards. TanStack Table holds the columns, the sort and
 * the selection; the markup stays Bootstrap's (a card with the title in its header, a table, SortHeader's headers).
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
  /**
   * The column's width (CSS). A virtual table lays its columns out from the header alone (table-layout: fixed):
   * the columns without one share what the others leave.
   */
  width?: string;
}

/** The list's title above it: 'Game Files (12)'. */
export interface ListTitle {
  text: string;
  /** The list's total, undefined until its first answer (the title then shows none rather than a false 0). */
  total?: number;
  as: 'h1' | 'h2';
  /** The heading's classes ('fs-5' unless given). */
  className?: string;
  /** The list sits in a card whose header is the title (the default), or under the bare heading. */
  card?: false | { className?: string; bodyClassName?: string };
}

export type RowAttributes = HTMLAttributes<HTMLTableRowElement> &
  Record<`data-${string}`, string | number | undefined>;

/** What a list's screen gives around its rows: the title, what sits above the rows, the load, empty text, pager. */
export interface ListFrameProps {
  title?: ListTitle;
  /** Above the rows, below the title: the search box, filters. */
  toolbar?: ReactNode;
  /** The list's query status: pending shows the loading mark, an error neither it nor the empty text. */
  status?: 'pending' | 'error' | 'success';
  /** The list is asking the server again (aria-busy on the card's body). */
  busy?: boolean;
  /** Shown instead of the rows when the list has none ("No results for …" while a pager's search is set). */
  emptyText?: string;
  /** The pager below the rows, for a list the server pages. */
  pager?: { list: ListState; total: number };
}

interface DataTableProps<T extends RowData> extends ListFrameProps {
  columns: readonly DataColumn<T>[];
  data: readonly T[];
  getRowKey: (row: T) => Key;
  /** The sort shown in the headers; with `sortHere` the table sorts the rows itself, else the server has. */
  sort?: TableSort;
  sortHere?: boolean;
  /** The selected rows by key (TanStack's row selection); with `onSelectionChange` each row gets a checkbox. */
  selection?: RowSelectionState;
  onSelectionChange?: (selection: RowSelectionState) => void;
  /** Which rows may be selected (all unless given). */
  canSelect?: (row: T) => boolean;
  /** A row checkbox's accessible name ('Select <row>'). */
  selectLabel?: (row: T) => string;
  /** The row's own attributes (`data-*-id`, a highlight class). */
  rowProps?: (row: T) => RowAttributes;
  /** A row drawn by the caller instead of the columns' cells (a row being edited in place). */
  renderRow?: (row: T) => ReactNode | undefined;
  /** Rows of the caller's under a row, measured with it (a sheet's replaced frames). */
  rowDetail?: (row: T) => ReactNode;
  /** The rows as cards in a grid instead of a table's rows (a card list); the columns then only sort. */
  renderCard?: (row: T) => ReactNode;
  /** A card list's grid: cards that take a whole row, the gap between cards (px, virtual grid), its classes. */
  cards?: { fullRow?: (row: T) => boolean; gap?: number; className?: string };
  /** Only the rows in view are rendered, scrolled with the page (decision 0041). */
  virtual?: {
    estimateSize: (row: T) => number;
    /** The row a link names, brought into view once (in the list's order, sorted or not). */
    scrollTo?: ((row: T) => boolean) | null;
  };
  size?: 'sm';
  hover?: boolean;
  'aria-label'?: string;
}

const features = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  sortedRowModel: createSortedRowModel(),
});
const noSelection: RowSelectionState = {};

export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const { title, toolbar, status = 'success', busy, emptyText, pager, data } = props;
  const empty =
    data.length === 0 && status === 'success' && (pager === undefined || pager.total === 0) && emptyText;
  const content = (
    <>
      {toolbar}
      {status === 'pending' && <Loading />}
      {empty && (pager ? <ListEmpty list={pager.list} text={empty} /> : <p className="mb-0">{empty}</p>)}
      {data.length > 0 && <Rows {...props} />}
      {pager && pager.total > 0 && <ListPager list={pager.list} total={pager.total} />}
    </>
  );
  if (!title) return content;

  const heading = titleWithTotal(title.text, title.total);
  const headingClass = title.className ?? 'fs-5';
  if (title.card === false) {
    const Heading = title.as;
    return (
      <>
        <Heading className={headingClass}>{heading}</Heading>
        {content}
      </>
    );
  }
  return (
    <Card className={title.card?.className}>
      <Card.Header as={title.as} className={headingClass}>
        {heading}
      </Card.Header>
      <Card.Body className={title.card?.bodyClassName} aria-busy={busy}>
        {content}
      </Card.Body>
    </Card>
  );
}

/** The rows themselves: a table (virtual or not) or a grid of cards, sorted and selected through TanStack Table. */
function Rows<T extends RowData>({
  columns,
  data,
  getRowKey,
  sort,
  sortHere = false,
  selection = noSelection,
  onSelectionChange,
  canSelect,
  selectLabel = () => 'Select row',
  rowProps,
  renderRow,
  rowDetail,
  renderCard,
  cards,
  virtual,
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
    getRowId: (row) => String(getRowKey(row)),
    state: { sorting, rowSelection: selection },
    manualSorting: !sortHere,
    enableRowSelection: canSelect ? (row) => canSelect(row.original) : true,
    onRowSelectionChange: (updater) =>
      onSelectionChange?.(typeof updater === 'function' ? updater(selection) : updater),
  });
  const modelRows = table.getRowModel().rows;
  const rows = modelRows.map((row) => row.original);

  if (renderCard) {
    if (!virtual)
      return (
        <BootstrapRow xs={1} md={2} lg={3} className={cards?.className ?? 'g-4'}>
          {rows.map((row) => (
            <Col key={getRowKey(row)}>{renderCard(row)}</Col>
          ))}
        </BootstrapRow>
      );
    const focused = virtual.scrollTo ? rows.find((row) => virtual.scrollTo!(row)) : undefined;
    return (
      <VirtualGrid
        className={cards?.className}
        items={rows}
        getKey={getRowKey}
        renderItem={renderCard}
        columns={cardColumns}
        fullRow={cards?.fullRow}
        estimateRowHeight={(cardsOfRow) => Math.max(0, ...cardsOfRow.map(virtual.estimateSize))}
        gap={cards?.gap}
        scrollToKey={focused === undefined ? null : getRowKey(focused)}
      />
    );
  }

  const selecting = onSelectionChange !== undefined;
  const rowById = new Map(modelRows.map((row) => [row.id, row]));
  const selectCell = (row: T) => {
    const model: Row<typeof features, T> | undefined = rowById.get(String(getRowKey(row)));
    return (
      model && (
        <td>
          <SelectBox
            label={selectLabel(row)}
            checked={model.getIsSelected()}
            disabled={!model.getCanSelect()}
            onChange={(checked) => model.toggleSelected(checked)}
          />
        </td>
      )
    );
  };
  const renderRows = (row: T) => {
    const own = renderRow?.(row);
    return (
      <>
        {own !== undefined ? (
          own
        ) : (
          <tr {...rowProps?.(row)}>
            {selecting && selectCell(row)}
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
    <Table
      responsive
      hover={hover}
      size={size}
      className={`mb-0 align-middle${virtual ? ' virtual-table' : ''}`}
      aria-label={label}
    >
      <thead>
        <tr>
          {selecting && (
            <th>
              <SelectAllBox
                checked={table.getIsAllRowsSelected()}
                some={table.getIsSomeRowsSelected()}
                onChange={(checked) => table.toggleAllRowsSelected(checked)}
              />
            </th>
          )}
          {columns.map((column) =>
            column.sortable && sort ? (
              <SortHeader key={column.id} list={sort} column={column.id} width={column.width}>
                {column.header}
              </SortHeader>
            ) : (
              <th key={column.id} style={column.width ? { width: column.width } : undefined}>
                {column.header}
              </th>
            ),
          )}
        </tr>
      </thead>
      {body}
    </Table>
  );

  if (virtual)
    return (
      <VirtualBodies
        rows={rows}
        getRowKey={getRowKey}
        virtual={virtual}
        colSpan={columns.length + (selecting ? 1 : 0)}
        renderRows={renderRows}
        shell={shell}
      />
    );
  return shell(
    <tbody>
      {rows.map((row) => (
        <Fragment key={getRowKey(row)}>{renderRows(row)}</Fragment>
      ))}
    </tbody>,
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
