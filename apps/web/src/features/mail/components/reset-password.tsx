import { zodResolver } from '@hookform/resolvers/zod';
import { mailMessages, passwordSchema } from '@reskin/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { TextField } from '../../../components/forms/text-field';
import { paths } from '../../../config/paths';
import { ApiError, envelopeError } from '../../../lib/api-error';
import { serverFieldErrors } from '../../../lib/forms/server-field-errors';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { notifySuccess } from '../../../lib/toasts';
import { useResetPassword } from '../../../api/mail';

/** A new password twice: the register form's rules, and both the same. */
export const newPasswordFormSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .refine((value) => value.password === value.confirm, {
    path: ['confirm'],
    error: mailMessages.passwordsDiffer,
  });
type NewPasswordInput = z.input<typeof newPasswordFormSchema>;

/** /reset-password?token=...: the reset link's form. A used or expired link says so, and how to get another. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<NewPasswordInput>({
    resolver: zodResolver(newPasswordFormSchema),
    mode: 'onChange',
    defaultValues: { password: '', confirm: '' },
  });
  const { track, error, markChanged } = useTrackedForm(register, errors);
  const resetCall = useResetPassword();
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : mailMessages.tokenInvalid);

  const submit = handleSubmit(async ({ password }) => {
    try {
      await resetCall.mutateAsync({ token, password });
      notifySuccess(mailMessages.passwordReset);
      navigate(paths.login, { replace: true });
    } catch (failure) {
      for (const [field, message] of serverFieldErrors(failure, ['password'] as const)) {
        markChanged(field);
        setError(field, { type: 'server', message }, { shouldFocus: true });
      }
      if (failure instanceof ApiError && (failure.status === 400 || failure.status === 410)) {
        setLinkProblem(envelopeError(failure.body)?.message ?? mailMessages.tokenInvalid);
      }
    }
  });

  return (
    <Card className="mx-auto" style={{ maxWidth: '28rem' }}>
      <Card.Header as="h1" className="fs-4">
        Choose a new password
      </Card.Header>
      <Card.Body>
        {linkProblem ? (
          <Alert variant="warning">
            {linkProblem} <Link to={paths.forgotPassword}>Ask for a new link</Link>
          </Alert>
        ) : (
          <Form noValidate onSubmit={submit}>
            <TextField
              registration={track('password')}
              label="New password"
              type="password"
              autoComplete="new-password"
              error={error('password')}
            />
            <TextField
              registration={track('confirm')}
              label="New password again"
              type="password"
              autoComplete="new-password"
              error={error('confirm')}
            />
            <Button type="submit" disabled={!isValid || isSubmitting}>
              Set the new password
            </Button>
          </Form>
        )}
      </Card.Body>
    </Card>
  );
}
