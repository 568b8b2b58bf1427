import { mailMessages } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { accountKeys, getMe } from '../../../api/account';
import { usePublicConfig } from '../../../api/config';
import { useResendVerification } from '../../../api/mail';
import { notifySuccess } from '../../../lib/toasts';

/**
 * Above every screen of a logged-in user whose address is not verified, while mail is on: without mail
 * there is no way to verify, so no banner. "Send again" mails a new link.
 */
export default function VerifyEmailBanner() {
  const config = usePublicConfig();
  const mailOn = config.data?.mail === true;
  const me = useQuery({
    queryKey: [...accountKeys.all, 'banner'],
    queryFn: () => getMe(),
    enabled: mailOn,
    staleTime: 60_000,
  });
  const resend = useResendVerification();
  if (!mailOn || !me.data || me.data.emailVerified) return null;
  return (
    <Alert
      variant="warning"
      className="container mt-3 mb-0 d-flex align-items-center gap-3"
      data-testid="verify-email-banner"
    >
      <span>{mailMessages.verifyBanner}</span>
      <Button
        size="sm"
        variant="outline-dark"
        disabled={resend.isPending}
        onClick={() => resend.mutate(undefined, { onSuccess: ({ message }) => notifySuccess(message) })}
      >
        Send again
      </Button>
    </Alert>
  );
}
