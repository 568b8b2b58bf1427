import { emptyTexts, messages } from '@reskin/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ListSearch } from '../../../components/lists/list-controls';
import { useListParams } from '../../../components/lists/use-list-params';
import { useConfirm } from '../../../components/ui/use-confirm';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { useUpdateServices } from '../../../api/admin';
import {
  useActivateUser,
  useDeleteUser,
  useResetPassword,
  useUpdateRole,
  useUsers,
} from '../../../api/users';
import { AddUserDialog } from './add-user-dialog';
import { PasswordDialog } from './password-dialog';
import { UsersTable, userSortColumns } from './users-table';
import { confirmQuestion, toggledRole, type UserAction } from './user-actions';

/**
 * User administration (SPEC §2 Admin): the users table (searched by username or email, sorted and paged on the
 * server), its confirmed row actions, Update and Add User.
 */
export function AdminUsers() {
  const list = useListParams({ searchColumns: ['username', 'email'], sortColumns: userSortColumns });
  const users = useUsers(list.params);
  const { user: me } = useSession();
  const deleteCall = useDeleteUser();
  const passwordCall = useResetPassword();
  const roleCall = useUpdateRole();
  const activateCall = useActivateUser();
  const servicesCall = useUpdateServices();
  const { confirm, dialog } = useConfirm();
  const [adding, setAdding] = useState(false);
  const [reset, setReset] = useState<{ username: string; password: string } | null>(null);

  const ask = async (action: UserAction) => {
    if (!(await confirm(confirmQuestion(action)))) return;
    const { kind, user } = action;
    if (kind === 'delete') {
      deleteCall.mutate(user.id, {
        onSuccess: () => notifySuccess(messages.userDeleted),
      });
    } else if (kind === 'password') {
      passwordCall.mutate(user.id, {
        onSuccess: (password) => {
          notifySuccess(messages.passwordReset(password));
          setReset({ username: user.username, password });
        },
      });
    } else if (kind === 'activate') {
      activateCall.mutate(user.id, {
        onSuccess: () => notifySuccess(messages.userActivated),
      });
    } else {
      roleCall.mutate(
        { id: user.id, roleTypeId: toggledRole(user.roleTypeId) },
        { onSuccess: () => notifySuccess(messages.roleUpdated) },
      );
    }
  };

  const updateServices = () =>
    servicesCall.mutate(undefined, {
      onSuccess: () => notifySuccess(messages.servicesUpdated),
    });

  const rows = users.data?.items ?? [];
  const total = users.data?.total ?? 0;

  return (
    <>
      {/* On the left: the top-right corner is where toasts appear. */}
      <div className="d-flex gap-2 mb-3">
        <Button variant="outline-primary" onClick={() => setAdding(true)}>
          Add User
        </Button>
        <Button variant="outline-secondary" onClick={updateServices} disabled={servicesCall.isPending}>
          Update
        </Button>
      </div>
      <UsersTable
        frame={{
          title: { text: 'Registered users', total: users.data?.total, as: 'h1' },
          toolbar: <ListSearch list={list} label="Search by username or email" />,
          status: users.status,
          busy: users.isFetching,
          emptyText: emptyTexts.users,
          pager: { list, total },
        }}
        users={rows}
        list={list}
        ownId={me?.id}
        onAction={(kind, user) => void ask({ kind, user })}
      />
      {dialog}
      <AddUserDialog show={adding} onClose={() => setAdding(false)} />
      <PasswordDialog reset={reset} onClose={() => setReset(null)} />
    </>
  );
}
