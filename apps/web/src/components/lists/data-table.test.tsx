import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, useLocalSort, type DataColumn, type TableSort } from './data-table';

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
    render(<DataTable columns={columns} data={[]} getRowKey={(row) => row.id} empty={<p>Nothing yet.</p>} />);
    expect(screen.getByText('Nothing yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
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
