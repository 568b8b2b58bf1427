import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DataTable,
  useLocalSort,
  type DataColumn,
  type RowSelectionState,
  type TableSort,
} from './data-table';
import { noResultsText } from './list-controls';
import type { ListState } from './use-list-params';

afterEach(cleanup);

interface Row {
  id: number;
  name: string;
  updatedAt: string;
}

const rows: Row[] = [
  { id: 1, name: 'b', updatedAt: '2024-01-02T00:00:00.000Z' },
  { id: 2, name: 'a', updatedAt: '2024-01-01T00:00:00.000Z' },
  { id: 3, name: 'c', updatedAt: '2024-01-03T00:00:00.000Z' },
];

const columns: DataColumn<Row>[] = [
  { id: 'name', header: 'Name', sortable: true, cell: (row) => row.name },
  {
    id: 'updatedAt',
    header: 'Updated',
    sortable: true,
    compare: (a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt),
    cell: (row) => row.updatedAt.slice(0, 10),
    cellProps: { 'data-testid': 'updated' },
  },
  { id: 'actions', header: 'Actions', cell: (row) => <button type="button">Open {row.name}</button> },
];

const bodyNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

function LocallySorted() {
  const sort = useLocalSort<'updatedAt'>({ column: 'updatedAt', direction: 'desc' });
  return <DataTable columns={columns} data={rows} getRowKey={(row) => row.id} sort={sort} sortHere />;
}

function LocallySortedCards({ data }: { data: Row[] }) {
  const sort = useLocalSort<'updatedAt'>({ column: 'updatedAt', direction: 'desc' });
  return (
    <DataTable
      columns={columns}
      data={data}
      getRowKey={(row) => row.id}
      sort={sort}
      sortHere
      emptyText="No cards."
      renderCard={(row) => <article>{row.name}</article>}
    />
  );
}

/** A list's URL state as a pager reads it, with the parts a test sets. */
function listState(part: Partial<ListState>): ListState {
  return {
    search: '',
    page: 1,
    pageSize: 20,
    sort: null,
    params: {},
    setSearch: () => undefined,
    setPage: () => undefined,
    setPageSize: () => undefined,
    toggleSort: () => undefined,
    ...part,
  } as ListState;
}

describe('DataTable', () => {
  it('renders the columns, their cells and cell attributes, and row attributes', () => {
    render(
      <DataTable
        columns={columns}
        data={rows}
        getRowKey={(row) => row.id}
        rowProps={(row) => ({ 'data-row-id': row.id })}
      />,
    );
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Updated',
      'Actions',
    ]);
    // Not sorted here, nor by a sort given: the rows in the order given.
    expect(bodyNames()).toEqual(['b', 'a', 'c']);
    expect(screen.getAllByTestId('updated')[0]?.textContent).toBe('2024-01-02');
    expect(screen.getAllByRole('row')[1]?.getAttribute('data-row-id')).toBe('1');
    expect(screen.getByRole('button', { name: 'Open a' })).toBeTruthy();
  });

  it("sorts its own rows by a column's compare, flipping on a click; the header says the direction", () => {
    render(<LocallySorted />);
    const header = screen.getByRole('columnheader', { name: /^Updated/ });
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(bodyNames()).toEqual(['c', 'b', 'a']);
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(bodyNames()).toEqual(['a', 'b', 'c']);
  });

  it('leaves a server-sorted list in its order and hands a header click to the list', () => {
    const clicked: string[] = [];
    const sort: TableSort = {
      sort: { column: 'name', direction: 'asc' },
      toggleSort: (column) => clicked.push(column),
    };
    render(<DataTable columns={columns} data={rows} getRowKey={(row) => row.id} sort={sort} />);
    expect(bodyNames()).toEqual(['b', 'a', 'c']);
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(screen.getByRole('columnheader', { name: /^Updated/ })).getByRole('button'));
    expect(clicked).toEqual(['updatedAt']);
    // A column that does not sort has no button.
    expect(within(screen.getByRole('columnheader', { name: 'Actions' })).queryByRole('button')).toBeNull();
  });

  it('shows the empty text instead of a table when there is no row', () => {
    render(<DataTable columns={columns} data={[]} getRowKey={(row) => row.id} emptyText="Nothing yet." />);
    expect(screen.getByText('Nothing yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the loading mark while the list loads, and neither it nor the empty text after a failure', () => {
    const { rerender } = render(
      <DataTable
        columns={columns}
        data={[]}
        getRowKey={(row) => row.id}
        emptyText="Nothing yet."
        status="pending"
      />,
    );
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByText('Nothing yet.')).toBeNull();
    rerender(
      <DataTable
        columns={columns}
        data={[]}
        getRowKey={(row) => row.id}
        emptyText="Nothing yet."
        status="error"
      />,
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText('Nothing yet.')).toBeNull();
  });

  it("says no result for a pager's search that matched nothing, and keeps the pager on a page past the end", () => {
    const { rerender } = render(
      <DataTable
        columns={columns}
        data={[]}
        getRowKey={(row) => row.id}
        emptyText="Nothing yet."
        pager={{ list: listState({ search: 'zzz' }), total: 0 }}
      />,
    );
    expect(screen.getByText(noResultsText('zzz'))).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    // Rows deleted under the user: no row on this page, but 3 in the list; the pager stays, the empty text not.
    rerender(
      <DataTable
        columns={columns}
        data={[]}
        getRowKey={(row) => row.id}
        emptyText="Nothing yet."
        pager={{ list: listState({ page: 1 }), total: 3 }}
      />,
    );
    expect(screen.queryByText('Nothing yet.')).toBeNull();
    expect(screen.getByText('3 items')).toBeTruthy();
  });

  it('draws the pager under the rows, which pages the list', () => {
    const pages: number[] = [];
    render(
      <DataTable
        columns={columns}
        data={rows}
        getRowKey={(row) => row.id}
        pager={{ list: listState({ pageSize: 3, setPage: (page) => pages.push(page) }), total: 7 }}
      />,
    );
    expect(screen.getByText('7 items')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Pages' })).getByText('›'));
    expect(pages).toEqual([2]);
  });

  it("heads the list with its title and total in a card's header, or under a bare heading", () => {
    const { rerender } = render(
      <DataTable
        title={{ text: 'Game Files', total: 12, as: 'h2' }}
        toolbar={<input aria-label="Search by path" />}
        busy
        columns={columns}
        data={rows}
        getRowKey={(row) => row.id}
      />,
    );
    const heading = screen.getByRole('heading', { level: 2, name: 'Game Files (12)' });
    expect(heading.classList.contains('card-header')).toBe(true);
    expect(heading.nextElementSibling?.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Search by path' })).toBeTruthy();
    // Before the list's first answer the title shows no total rather than a false 0.
    rerender(
      <DataTable
        title={{ text: 'Games', as: 'h1', card: false }}
        status="pending"
        columns={columns}
        data={[]}
        getRowKey={(row) => row.id}
      />,
    );
    const bare = screen.getByRole('heading', { level: 1, name: 'Games' });
    expect(bare.classList.contains('card-header')).toBe(false);
  });

  it('selects rows through a checkbox column, all at once from the header, never a row that cannot be', () => {
    function Selecting() {
      const [selection, setSelection] = useState<RowSelectionState>({});
      return (
        <>
          <DataTable
            columns={columns}
            data={rows}
            getRowKey={(row) => row.id}
            selection={selection}
            onSelectionChange={setSelection}
            canSelect={(row) => row.id !== 3}
            selectLabel={(row) => `Select ${row.name}`}
          />
          <output>{Object.keys(selection).sort().join(',')}</output>
        </>
      );
    }
    render(<Selecting />);
    const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    expect(box('Select c').disabled).toBe(true);
    fireEvent.click(box('Select a'));
    expect(screen.getByRole('status').textContent).toBe('2');
    expect(box('Select a').checked).toBe(true);
    expect(box('Select all').indeterminate).toBe(true);
    fireEvent.click(box('Select all'));
    expect(screen.getByRole('status').textContent).toBe('1,2');
    fireEvent.click(box('Select all'));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('draws the rows as cards in the same order, with the same empty text', () => {
    const { rerender } = render(<LocallySortedCards data={rows} />);
    expect(screen.getAllByRole('article').map((card) => card.textContent)).toEqual(['c', 'b', 'a']);
    rerender(<LocallySortedCards data={[]} />);
    expect(screen.getByText('No cards.')).toBeTruthy();
  });

  it('draws a row of its own in place of the cells, and rows under a row', () => {
    render(
      <DataTable
        columns={columns}
        data={rows}
        getRowKey={(row) => row.id}
        renderRow={(row) =>
          row.id === 2 ? (
            <tr>
              <td colSpan={3}>editing a</td>
            </tr>
          ) : undefined
        }
        rowDetail={(row) =>
          row.id === 3 && (
            <tr>
              <td colSpan={3}>frames of c</td>
            </tr>
          )
        }
      />,
    );
    expect(bodyNames()).toEqual(['b', 'editing a', 'c', 'frames of c']);
  });
});
