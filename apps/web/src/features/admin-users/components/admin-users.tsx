import { emptyTexts, messages } from '@reskin/contract';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Loading } from '../../../components/ui/loading';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/list-users';
import { useResetPassword } from '../api/reset-password';
import { useUpdateRole } from '../api/update-role';
import { describeServicesUpdate, useUpdateServices } from '../api/update-services';
import { AddUserDialog } from './add-user-dialog';
import { UsersTable } from './users-table';
import { confirmQuestion, toggledRole, type UserAction } from './user-actions';

const logFailure = (what: string) => (error: unknown) => console.error(`${what} failed`, error);

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

  useEffect(() => {
    // SPEC §8: a load error is only logged (the client has already toasted it).
    if (users.error) console.error('user list failed', users.error);
  }, [users.error]);

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
        onError: logFailure('delete'),
      });
    } else if (kind === 'password') {
      passwordCall.mutate(user.id, {
        onSuccess: (password) => notifySuccess(messages.passwordReset(password)),
        onError: logFailure('password reset'),
      });
    } else {
      roleCall.mutate(
        { id: user.id, roleTypeId: toggledRole(user.roleTypeId) },
        { onSuccess: () => notifySuccess(messages.roleUpdated), onError: logFailure('role update') },
      );
    }
  };

  const updateServices = () =>
    servicesCall.mutate(undefined, {
      onSuccess: (summary) => notifySuccess(describeServicesUpdate(summary, messages.servicesUpdated)),
      onError: logFailure('services update'),
    });

  const list = users.data ?? [];

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
