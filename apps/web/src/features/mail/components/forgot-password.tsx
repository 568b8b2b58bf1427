import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordBodySchema, mailMessages, type ForgotPasswordBody } from '@reskin/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { TextField } from '../../../components/forms/text-field';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { usePublicConfig } from '../../../api/config';
import { useForgotPassword } from '../../../api/mail';

/** /forgot-password: an email, and the same answer whether or not an account has it. */
export function ForgotPassword() {
  const config = usePublicConfig();
  const {
    register,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useForm<z.input<typeof forgotPasswordBodySchema>, unknown, ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordBodySchema),
    mode: 'onChange',
    defaultValues: { email: '' },
  });
  const { track, error } = useTrackedForm(register, errors);
  const forgotCall = useForgotPassword();
  const [answer, setAnswer] = useState<string | null>(null);

  const submit = handleSubmit(async (body) => {
    try {
      setAnswer((await forgotCall.mutateAsync(body)).message);
    } catch {
      // The call's toast says why (429: how long to wait).
    }
  });

  return (
    <Card className="mx-auto" style={{ maxWidth: '28rem' }}>
      <Card.Header as="h1" className="fs-4">
        Forgot password
      </Card.Header>
      <Card.Body>
        {config.isPending && <Loading />}
        {config.data && !config.data.mail && <Alert variant="secondary">{mailMessages.mailOff}</Alert>}
        {config.data?.mail && answer && (
          <Alert variant="success" role="status">
            {answer}
          </Alert>
        )}
        {config.data?.mail && !answer && (
          <Form noValidate onSubmit={submit}>
            <p>Enter the email of your account; we mail you a link to choose a new password.</p>
            <TextField
              registration={track('email')}
              label="Email"
              type="email"
              autoComplete="email"
              error={error('email')}
            />
            <Button type="submit" disabled={!isValid || isSubmitting}>
              Send the link
            </Button>
          </Form>
        )}
        <p className="mt-3 mb-0">
          <Link to={paths.login}>Back to login</Link>
        </p>
      </Card.Body>
    </Card>
  );
}
