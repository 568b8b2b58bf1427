import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { UserGameRow } from '../../../api/user-games';
import type { ListState } from '../../../components/lists/use-list-params';
import { DataTable, type DataColumn, type ListFrameProps } from '../../../components/lists/data-table';
import { DateTime } from '../../../components/ui/date-time';
import { formatBudget, jobTypeName } from '../lib/format';
import type { UserGameSortColumn } from '../lib/user-games-list';

export type UserGameActionKind = 'edit' | 'delete' | 'activity';

interface UserGamesTableProps {
  /** The list's title, search, loading, empty text and pager (DataTable's). */
  frame: ListFrameProps;
  rows: UserGameRow[];
  /** The list's sort, which the headers show and change. */
  list: ListState<UserGameSortColumn>;
  /** The versions screen of a row (SPEC §2: rows lead to that user-game's versions). */
  versionsHref: (row: UserGameRow) => string;
  onAction: (kind: UserGameActionKind, row: UserGameRow) => void;
}

export function UserGamesTable({ frame, rows, list, versionsHref, onAction }: UserGamesTableProps) {
  const sorted = (id: UserGameSortColumn, header: string, cell: DataColumn<UserGameRow>['cell']) => ({
    id,
    header,
    sortable: true,
    cell,
  });
  const columns: DataColumn<UserGameRow>[] = [
    sorted('username', 'User', (row) => row.username),
    sorted('gameName', 'Game', (row) => row.gameName),
    sorted('userGameTypeId', 'Job Type', (row) => jobTypeName(row.userGameTypeId)),
    sorted('jobPrice', 'Budget', (row) => formatBudget(row.jobPrice)),
    sorted('isActive', 'Active', (row) => (
      <Badge bg={row.isActive ? 'success' : 'secondary'}>{row.isActive ? 'Yes' : 'No'}</Badge>
    )),
    sorted('versionCount', 'Versions', (row) => row.versionCount),
    // Finished work waiting for review stands out.
    sorted('finishedCount', 'Finished', (row) =>
      row.finishedCount > 0 ? <Badge bg="success">{row.finishedCount}</Badge> : row.finishedCount,
    ),
    {
      ...sorted('lastFinishedAt', 'Last Finished', (row) => <DateTime value={row.lastFinishedAt} />),
      cellProps: { className: 'text-nowrap' },
    },
    {
      // Finished versions without a verdict since their last finish.
      ...sorted('toReviewCount', 'To Review', (row) =>
        row.toReviewCount > 0 ? <Badge bg="info">{row.toReviewCount}</Badge> : row.toReviewCount,
      ),
      cellProps: { 'data-testid': 'to-review-count' },
    },
    {
      ...sorted('openNotes', 'Open Notes', (row) =>
        row.openNotes > 0 ? (
          <Badge bg="warning" text="dark">
            {row.openNotes}
          </Badge>
        ) : (
          row.openNotes
        ),
      ),
      cellProps: { 'data-testid': 'open-notes-count' },
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (row) => (
        <div className="d-flex flex-wrap gap-1">
          <Link className="btn btn-sm btn-outline-primary" to={versionsHref(row)}>
            Versions
          </Link>
          <Button size="sm" variant="outline-secondary" onClick={() => onAction('edit', row)}>
            Edit
          </Button>
          <Button size="sm" variant="outline-danger" onClick={() => onAction('delete', row)}>
            Delete
          </Button>
          <Button
            size="sm"
            variant={row.isActive ? 'outline-warning' : 'outline-success'}
            onClick={() => onAction('activity', row)}
          >
            {row.isActive ? 'Remove Access' : 'Give Access'}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <DataTable
      {...frame}
      columns={columns}
      data={rows}
      getRowKey={(row) => row.id}
      sort={list}
      rowProps={(row) => ({ 'data-user-game-id': row.id })}
    />
  );
}
