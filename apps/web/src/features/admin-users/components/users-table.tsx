import { roleName } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import type { UserRow } from '../../../api/users';
import { DataTable, type DataColumn, type ListFrameProps } from '../../../components/lists/data-table';
import type { ListState } from '../../../components/lists/use-list-params';
import { roleToggleLabel, type UserActionKind } from './user-actions';

/** The columns the table sorts by (the server's user search columns). */
export const userSortColumns = ['username', 'email', 'roleTypeId', 'activated', 'emailVerified'] as const;

interface UsersTableProps {
  /** The list's title, search, loading, empty text and pager (DataTable's). */
  frame: ListFrameProps;
  users: UserRow[];
  list: ListState<(typeof userSortColumns)[number]>;
  /** The logged-in admin, whose own row cannot be acted on. */
  ownId: number | undefined;
  onAction: (kind: UserActionKind, user: UserRow) => void;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export function UsersTable({ frame, users, list, ownId, onAction }: UsersTableProps) {
  const columns: DataColumn<UserRow>[] = [
    { id: 'username', header: 'Username', sortable: true, cell: (user) => user.username },
    { id: 'email', header: 'Email', sortable: true, cell: (user) => user.email },
    { id: 'roleTypeId', header: 'Role', sortable: true, cell: (user) => roleName(user.roleTypeId) },
    { id: 'activated', header: 'Active', sortable: true, cell: (user) => yesNo(user.activated) },
    {
      id: 'emailVerified',
      header: 'Mail Verified',
      sortable: true,
      cell: (user) => yesNo(user.emailVerified),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (user) => {
        const own = user.id === ownId;
        return (
          <div className="d-flex flex-wrap gap-1">
            <Button
              size="sm"
              variant="outline-danger"
              disabled={own}
              onClick={() => onAction('delete', user)}
            >
              Delete
            </Button>
            <Button
              size="sm"
              variant="outline-secondary"
              disabled={own}
              onClick={() => onAction('password', user)}
            >
              Password
            </Button>
            <Button size="sm" variant="outline-primary" disabled={own} onClick={() => onAction('role', user)}>
              {roleToggleLabel(user.roleTypeId)}
            </Button>
            {!user.activated && (
              <Button
                size="sm"
                variant="outline-success"
                disabled={own}
                onClick={() => onAction('activate', user)}
              >
                Activate
              </Button>
            )}
          </div>
        );
      },
    },
  ];
  return <DataTable {...frame} columns={columns} data={users} getRowKey={(user) => user.id} sort={list} />;
}
