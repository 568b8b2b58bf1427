import { emptyTexts, messages } from '@reskin/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Loading } from '../../../components/ui/loading';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { useUpdateServices } from '../../../api/admin';
import { useDeleteUser, useResetPassword, useUpdateRole, useUsers } from '../../../api/users';
import { AddUserDialog } from './add-user-dialog';
import { UsersTable } from './users-table';
import { confirmQuestion, toggledRole, type UserAction } from './user-actions';

/** User administration (SPEC §2 Admin): the users table, its confirmed row actions, Update and Add User. */
export function AdminUsers() {
  const users = useUsers();
  const { user: me } = useSession();
  const deleteCall = useDeleteUser();
  const passwordCall = useResetPassword();
  const roleCall = useUpdateRole();
  const servicesCall = useUpdateServices();
  const [pending, setPending] = useState<UserAction | null>(null);
  // Kept apart from `pending` so the question stays on screen while the dialog fades out.
  const [confirming, setConfirming] = useState(false);
  const [adding, setAdding] = useState(false);

  const ask = (action: UserAction) => {
    setPending(action);
    setConfirming(true);
  };

  const confirm = () => {
    setConfirming(false);
    if (!pending) return;
    const { kind, user } = pending;
    if (kind === 'delete') {
      deleteCall.mutate(user.id, {
        onSuccess: () => notifySuccess(messages.userDeleted),
      });
    } else if (kind === 'password') {
      passwordCall.mutate(user.id, {
        onSuccess: (password) => notifySuccess(messages.passwordReset(password)),
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

  const list = users.data?.items ?? [];

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
      <Card>
        <Card.Header as="h1" className="fs-5">
          Registered users ({list.length})
        </Card.Header>
        <Card.Body>
          {users.isPending && <Loading />}
          {users.isSuccess && list.length === 0 && <p className="mb-0">{emptyTexts.users}</p>}
          {list.length > 0 && (
            <UsersTable users={list} ownId={me?.id} onAction={(kind, user) => ask({ kind, user })} />
          )}
        </Card.Body>
      </Card>
      <ConfirmDialog
        show={confirming}
        question={pending ? confirmQuestion(pending) : ''}
        onCancel={() => setConfirming(false)}
        onConfirm={confirm}
      />
      <AddUserDialog show={adding} onClose={() => setAdding(false)} />
    </>
  );
}
