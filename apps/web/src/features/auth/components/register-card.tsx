import { messages, type SignupBody } from '@reskin/contract';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { RegisterForm } from '../../../components/forms/register-form';
import { paths } from '../../../config/paths';
import { notifySuccess } from '../../../lib/toasts';
import { useSignup } from '../../../api/auth';

/** The register screen: on success a toast and /login; a failure's one toast comes from the signup call. */
export function RegisterCard() {
  const signupCall = useSignup();
  const navigate = useNavigate();

  // A failure's one toast comes from the signup call (SPEC §8's 'email already exists' and why, api/auth.ts); the
  // form gets the failure too and shows a field the server refused under that field.
  const register = async (body: SignupBody) => {
    await signupCall.mutateAsync(body);
    notifySuccess(messages.registered);
    navigate(paths.login);
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
