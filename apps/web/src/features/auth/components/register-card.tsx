import { messages, type SignupBody } from '@reskin/contract';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { RegisterForm } from '../../../components/forms/register-form';
import { paths } from '../../../config/paths';
import { serverFieldErrors } from '../../../lib/forms/server-field-errors';
import { notifyFailure, notifySuccess } from '../../../lib/toasts';
import { useSignup } from '../../../api/auth';

/** The register screen: on success a toast and /login; a failure adds the spec's danger toast (not for a refused password). */
export function RegisterCard() {
  const signupCall = useSignup();
  const navigate = useNavigate();

  const register = async (body: SignupBody) => {
    try {
      await signupCall.mutateAsync(body);
      notifySuccess(messages.registered);
      navigate(paths.login);
    } catch (error) {
      // SPEC §8's danger toast for any failure, except a field the server refused (a common password, issue 23):
      // the form shows that one under its field, where 'email already exists' would mislead.
      if (serverFieldErrors(error, ['password']).size === 0) notifyFailure(messages.registerFailed, error);
      throw error;
    }
  };

  return (
    <Card className="mx-auto" style={{ maxWidth: '36rem' }}>
      <Card.Header as="h1" className="fs-4">
        Register
      </Card.Header>
      <Card.Body>
        <RegisterForm submitLabel="Register" onSubmit={register} />
      </Card.Body>
    </Card>
  );
}
