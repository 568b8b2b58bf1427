import { zodResolver } from '@hookform/resolvers/zod';
import { loginBodySchema, passwordSchema, type LoginBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { TextField } from '../../../components/forms/text-field';
import { paths } from '../../../config/paths';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { useSession } from '../../../lib/session/session-context';
import { useLogin } from '../../../api/auth';
import { usePublicConfig } from '../../../api/config';

/**
 * SPEC §5 gives login the same password rule as registration (at least 8 characters); the server's login
 * body only requires a password, so the form adds the length rule.
 */
const loginFormSchema = loginBodySchema.extend({ password: passwordSchema });
type LoginInput = z.input<typeof loginFormSchema>;

/** The login email's warning (LOG-3): demo accounts can still log in, so it is not a validation error. */
export function looksLikeDemo(email: string | undefined): boolean {
  return /demo/i.test(email ?? '');
}

export function LoginForm() {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useForm<LoginInput, unknown, LoginBody>({
    resolver: zodResolver(loginFormSchema),
    mode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const { track, error } = useTrackedForm(register, errors);
  const email = useWatch({ control, name: 'email' });
  const loginCall = useLogin();
  const { acceptToken } = useSession();
  const navigate = useNavigate();
  // "Forgot password?" only where the server sends mail; elsewhere an admin resets passwords.
  const mailOn = usePublicConfig().data?.mail === true;

  const submit = handleSubmit(async (body) => {
    try {
      const { token } = await loginCall.mutateAsync(body);
      acceptToken(token);
      navigate(paths.home, { replace: true });
    } catch {
      // The login call's one toast says what went wrong (api/auth.ts); the form stays for another try.
    }
  });

  return (
    <Card className="mx-auto" style={{ maxWidth: '28rem' }}>
      <Card.Header as="h1" className="fs-4">
        Login
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={submit}>
          <TextField
            registration={track('email')}
            label="Email"
            type="email"
            autoComplete="email"
            error={error('email')}
            warning={looksLikeDemo(email)}
          />
          <TextField
            registration={track('password')}
            label="Password"
            type="password"
            autoComplete="current-password"
            error={error('password')}
          />
          <Button type="submit" disabled={!isValid || isSubmitting}>
            Login
          </Button>
          {mailOn && (
            <Link to={paths.forgotPassword} className="ms-3">
              Forgot password?
            </Link>
          )}
        </Form>
      </Card.Body>
    </Card>
  );
}
