import { roleName } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { UserRow } from '../../../api/users';
import { SortHeader } from '../../../components/lists/list-controls';
import type { ListState } from '../../../components/lists/use-list-params';
import { roleToggleLabel, type UserActionKind } from './user-actions';

/** The columns the table sorts by (the server's user search columns). */
export const userSortColumns = ['username', 'email', 'roleTypeId', 'activated', 'emailVerified'] as const;

interface UsersTableProps {
  users: UserRow[];
  list: ListState<(typeof userSortColumns)[number]>;
  /** The logged-in admin, whose own row cannot be acted on. */
  ownId: number | undefined;
  onAction: (kind: UserActionKind, user: UserRow) => void;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export function UsersTable({ users, list, ownId, onAction }: UsersTableProps) {
  return (
    <Table responsive hover className="mb-0 align-middle">
      <thead>
        <tr>
          <SortHeader list={list} column="username">
            Username
          </SortHeader>
          <SortHeader list={list} column="email">
            Email
          </SortHeader>
          <SortHeader list={list} column="roleTypeId">
            Role
          </SortHeader>
          <SortHeader list={list} column="activated">
            Active
          </SortHeader>
          <SortHeader list={list} column="emailVerified">
            Mail Verified
          </SortHeader>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => {
          const own = user.id === ownId;
          return (
            <tr key={user.id}>
              <td>{user.username}</td>
              <td>{user.email}</td>
              <td>{roleName(user.roleTypeId)}</td>
              <td>{yesNo(user.activated)}</td>
              <td>{yesNo(user.emailVerified)}</td>
              <td>
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
                  <Button
                    size="sm"
                    variant="outline-primary"
                    disabled={own}
                    onClick={() => onAction('role', user)}
                  >
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
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
