import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { UserGameRow } from '../../../api/user-games';
import type { ListState } from '../../../components/lists/use-list-params';
import { SortHeader } from '../../../components/lists/list-controls';
import { DateTime } from '../../../components/ui/date-time';
import { formatBudget, jobTypeName } from '../lib/format';
import type { UserGameSortColumn } from '../lib/user-games-list';

export type UserGameActionKind = 'edit' | 'delete' | 'activity';

interface UserGamesTableProps {
  rows: UserGameRow[];
  /** The list's sort, which the headers show and change. */
  list: ListState<UserGameSortColumn>;
  /** The versions screen of a row (SPEC §2: rows lead to that user-game's versions). */
  versionsHref: (row: UserGameRow) => string;
  onAction: (kind: UserGameActionKind, row: UserGameRow) => void;
}

export function UserGamesTable({ rows, list, versionsHref, onAction }: UserGamesTableProps) {
  const header = (column: UserGameSortColumn, label: string) => (
    <SortHeader list={list} column={column}>
      {label}
    </SortHeader>
  );
  return (
    <Table responsive hover className="mb-0 align-middle">
      <thead>
        <tr>
          {header('username', 'User')}
          {header('gameName', 'Game')}
          {header('userGameTypeId', 'Job Type')}
          {header('jobPrice', 'Budget')}
          {header('isActive', 'Active')}
          {header('versionCount', 'Versions')}
          {header('finishedCount', 'Finished')}
          {header('lastFinishedAt', 'Last Finished')}
          {header('toReviewCount', 'To Review')}
          {header('openNotes', 'Open Notes')}
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-user-game-id={row.id}>
            <td>{row.username}</td>
            <td>{row.gameName}</td>
            <td>{jobTypeName(row.userGameTypeId)}</td>
            <td>{formatBudget(row.jobPrice)}</td>
            <td>
              <Badge bg={row.isActive ? 'success' : 'secondary'}>{row.isActive ? 'Yes' : 'No'}</Badge>
            </td>
            <td>{row.versionCount}</td>
            <td>
              {/* Finished work waiting for review stands out. */}
              {row.finishedCount > 0 ? <Badge bg="success">{row.finishedCount}</Badge> : row.finishedCount}
            </td>
            <td className="text-nowrap">
              <DateTime value={row.lastFinishedAt} />
            </td>
            <td data-testid="to-review-count">
              {/* Finished versions without a verdict since their last finish. */}
              {row.toReviewCount > 0 ? <Badge bg="info">{row.toReviewCount}</Badge> : row.toReviewCount}
            </td>
            <td data-testid="open-notes-count">
              {row.openNotes > 0 ? (
                <Badge bg="warning" text="dark">
                  {row.openNotes}
                </Badge>
              ) : (
                row.openNotes
              )}
            </td>
            <td>
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
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
