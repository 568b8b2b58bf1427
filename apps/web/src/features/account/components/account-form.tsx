import { zodResolver } from '@hookform/resolvers/zod';
import { messages, roleName, updateUserBodySchema, type UpdateUserBody, type User } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useState } from 'react';
import type { z } from 'zod';
import { TextField } from '../../../components/forms/text-field';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { useSession } from '../../../lib/session/session-context';
import { useLogout } from '../../../lib/session/use-logout';
import { notifySuccess } from '../../../lib/toasts';
import { useDisableAccount, useUpdateAccount } from '../../../api/account';

type AccountInput = z.input<typeof updateUserBodySchema>;

export function AccountForm({ user }: { user: User }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<AccountInput, unknown, UpdateUserBody>({
    resolver: zodResolver(updateUserBodySchema),
    mode: 'onChange',
    defaultValues: { username: user.username, email: user.email },
  });
  const { track, error } = useTrackedForm(register, errors);
  const updateCall = useUpdateAccount();
  const disableCall = useDisableAccount();
  const { acceptToken } = useSession();
  const logout = useLogout();
  const [confirmingSuspend, setConfirmingSuspend] = useState(false);

  const save = handleSubmit((body) =>
    updateCall.mutate(body, {
      onSuccess: ({ token }) => {
        acceptToken(token);
        notifySuccess(messages.accountSaved);
      },
    }),
  );

  const suspend = () => {
    setConfirmingSuspend(false);
    disableCall.mutate(undefined, {
      onSuccess: () => {
        notifySuccess(messages.accountDisabled);
        logout();
      },
    });
  };

  const busy = updateCall.isPending || disableCall.isPending;

  return (
    <Form noValidate onSubmit={save}>
      <TextField
        registration={track('username')}
        label="Username"
        autoComplete="username"
        error={error('username')}
      />
      <TextField
        registration={track('email')}
        label="Email"
        type="email"
        autoComplete="email"
        error={error('email')}
      />
      <Form.Group className="mb-3" controlId="role">
        <Form.Label>Role</Form.Label>
        <Form.Control plaintext readOnly value={roleName(user.roleTypeId)} />
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={!isValid || busy}>
          Save
        </Button>
        <Button variant="outline-danger" onClick={() => setConfirmingSuspend(true)} disabled={busy}>
          Suspend My Account
        </Button>
      </div>
      <ConfirmDialog
        show={confirmingSuspend}
        question={messages.confirmSuspendAccount}
        onCancel={() => setConfirmingSuspend(false)}
        onConfirm={suspend}
      />
    </Form>
  );
}
