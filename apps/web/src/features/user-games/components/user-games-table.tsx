import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { UserGameRow } from '../../../api/user-games';
import { formatBudget, jobTypeName } from '../lib/format';

export type UserGameActionKind = 'edit' | 'delete' | 'activity';

interface UserGamesTableProps {
  rows: UserGameRow[];
  /** The versions screen of a row (SPEC §2: rows lead to that user-game's versions). */
  versionsHref: (row: UserGameRow) => string;
  onAction: (kind: UserGameActionKind, row: UserGameRow) => void;
}

export function UserGamesTable({ rows, versionsHref, onAction }: UserGamesTableProps) {
  return (
    <Table responsive hover className="mb-0 align-middle">
      <thead>
        <tr>
          <th>User</th>
          <th>Game</th>
          <th>Job Type</th>
          <th>Budget</th>
          <th>Active</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-user-game-id={row.id}>
            <td>{row.user?.username ?? row.userId}</td>
            <td>{row.game?.name ?? row.gameId}</td>
            <td>{jobTypeName(row.userGameTypeId)}</td>
            <td>{formatBudget(row.jobPrice)}</td>
            <td>
              <Badge bg={row.isActive ? 'success' : 'secondary'}>{row.isActive ? 'Yes' : 'No'}</Badge>
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
