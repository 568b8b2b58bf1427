import { zodResolver } from '@hookform/resolvers/zod';
import { errorCodes, limits, mailMessages, passwordSchema, validationMessages } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { TextField } from '../../../components/forms/text-field';
import { ApiError } from '../../../lib/api-error';
import { serverFieldErrors } from '../../../lib/forms/server-field-errors';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { useChangePassword } from '../../../api/mail';

/** The current password, and the new one twice by the register form's rules. */
const changePasswordSchema = z
  .object({
    oldPassword: z.string().min(1, { error: 'Enter your current password.' }).max(limits.password.max),
    newPassword: passwordSchema,
    confirm: z.string(),
  })
  .refine((value) => value.newPassword === value.confirm, {
    path: ['confirm'],
    error: mailMessages.passwordsDiffer,
  });
type ChangePasswordInput = z.input<typeof changePasswordSchema>;
const empty: ChangePasswordInput = { oldPassword: '', newPassword: '', confirm: '' };

/**
 * The account screen's password change: PUT /user/update/password with the current and the new password.
 * The server ends every other session; this one goes on with the answered token. A wrong current password shows on
 * its field, a common new password on the new one; a 429 is the call's toast.
 */
export function ChangePasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    mode: 'onChange',
    defaultValues: empty,
  });
  const { track, error, markChanged } = useTrackedForm(register, errors);
  const changeCall = useChangePassword();
  const { acceptToken } = useSession();

  const submit = handleSubmit(async ({ oldPassword, newPassword }) => {
    try {
      const { token } = await changeCall.mutateAsync({ oldPassword, newPassword });
      if (token) acceptToken(token);
      reset(empty);
      notifySuccess(mailMessages.passwordChanged);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === errorCodes.invalidCredentials) {
        markChanged('oldPassword');
        setError(
          'oldPassword',
          { type: 'server', message: validationMessages.currentPasswordWrong },
          { shouldFocus: true },
        );
      }
      for (const [field, message] of serverFieldErrors(failure, ['newPassword'] as const)) {
        markChanged(field);
        setError(field, { type: 'server', message }, { shouldFocus: true });
      }
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-label="Change password">
      <TextField
        registration={track('oldPassword')}
        id="change-oldPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={error('oldPassword')}
      />
      <TextField
        registration={track('newPassword')}
        id="change-newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        error={error('newPassword')}
      />
      <TextField
        registration={track('confirm')}
        id="change-confirm"
        label="New password again"
        type="password"
        autoComplete="new-password"
        error={error('confirm')}
      />
      <Button type="submit" disabled={!isValid || isSubmitting}>
        Change Password
      </Button>
    </Form>
  );
}
