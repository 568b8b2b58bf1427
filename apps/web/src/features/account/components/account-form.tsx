import { zodResolver } from '@hookform/resolvers/zod';
import {
  accountFormSchema,
  emailChangeNeedsPassword,
  errorCodes,
  messages,
  roleName,
  validationMessages,
  type UpdateUserBody,
  type User,
} from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useRef } from 'react';
import type { z } from 'zod';
import { ApiError } from '../../../lib/api-error';
import { TextField } from '../../../components/forms/text-field';
import { useConfirm } from '../../../components/ui/use-confirm';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { useSession } from '../../../lib/session/session-context';
import { useLogout } from '../../../lib/session/use-logout';
import { notifySuccess } from '../../../lib/toasts';
import { useDisableAccount, useUpdateAccount } from '../../../api/account';

type AccountInput = z.input<ReturnType<typeof accountFormSchema>>;

/**
 * The account form: username and email, and the current password once the email differs from the account's
 * (a new email needs it, and ends the account's other sessions).
 */
export function AccountForm({ user }: { user: User }) {
  // The account's email as last saved: the one a new email is compared with.
  const savedEmail = useRef(user.email);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isValid },
  } = useForm<AccountInput, unknown, UpdateUserBody>({
    resolver: (values, context, options) =>
      zodResolver(accountFormSchema(savedEmail.current))(values, context, options),
    mode: 'onChange',
    defaultValues: { username: user.username, email: user.email, currentPassword: '' },
  });
  const { track, error } = useTrackedForm(register, errors);
  const updateCall = useUpdateAccount();
  const disableCall = useDisableAccount();
  const { acceptToken } = useSession();
  const logout = useLogout();
  const { confirm, dialog } = useConfirm();

  const emailChanges = emailChangeNeedsPassword(savedEmail.current, (watch('email') ?? '').trim());

  const save = handleSubmit(({ currentPassword, ...fields }) => {
    const body = emailChangeNeedsPassword(savedEmail.current, fields.email)
      ? { ...fields, currentPassword }
      : fields;
    updateCall.mutate(body, {
      onSuccess: ({ token }) => {
        acceptToken(token);
        savedEmail.current = fields.email.toLowerCase();
        reset({ ...fields, email: fields.email.toLowerCase(), currentPassword: '' });
        notifySuccess(messages.accountSaved);
      },
      onError: (failure) => {
        // The client has toasted the server's message; the field says it too.
        if (failure instanceof ApiError && failure.code === errorCodes.invalidCredentials) {
          setError(
            'currentPassword',
            { type: 'server', message: validationMessages.currentPasswordWrong },
            { shouldFocus: true },
          );
        }
      },
    });
  });

  const suspend = async () => {
    if (!(await confirm(messages.confirmSuspendAccount))) return;
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
      {emailChanges && (
        <TextField
          registration={track('currentPassword')}
          label="Current password (needed to change your email; your other sessions end)"
          type="password"
          autoComplete="current-password"
          error={error('currentPassword')}
        />
      )}
      <Form.Group className="mb-3" controlId="role">
        <Form.Label>Role</Form.Label>
        <Form.Control plaintext readOnly value={roleName(user.roleTypeId)} />
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={!isValid || busy}>
          Save
        </Button>
        <Button variant="outline-danger" onClick={() => void suspend()} disabled={busy}>
          Suspend My Account
        </Button>
      </div>
      {dialog}
    </Form>
  );
}
