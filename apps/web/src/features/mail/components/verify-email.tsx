import { mailMessages } from '@reskin/contract';
import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { Link, useSearchParams } from 'react-router';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { ApiError, envelopeError } from '../../../lib/api-error';
import { useVerifyEmail } from '../../../api/mail';

/** /verify-email?token=...: follows the link once and shows what came of it. */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verifyCall = useVerifyEmail();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(
    token ? null : { ok: false, message: mailMessages.tokenInvalid },
  );
  // Once per page, also under React's development double effects: a second call would find the token used.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verifyCall.mutateAsync({ token }).then(
      () => setResult({ ok: true, message: mailMessages.verified }),
      (failure: unknown) =>
        setResult({
          ok: false,
          message:
            (failure instanceof ApiError && envelopeError(failure.body)?.message) ||
            mailMessages.tokenInvalid,
        }),
    );
  }, [token, verifyCall]);

  return (
    <Card className="mx-auto" style={{ maxWidth: '28rem' }}>
      <Card.Header as="h1" className="fs-4">
        Verify your email address
      </Card.Header>
      <Card.Body>
        {!result && <Loading />}
        {result && (
          <Alert variant={result.ok ? 'success' : 'warning'} role="status">
            {result.message}
          </Alert>
        )}
        <Link to={paths.home}>Continue</Link>
      </Card.Body>
    </Card>
  );
}
