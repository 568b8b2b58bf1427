import { can } from '@reskin/contract';
import Card from 'react-bootstrap/Card';
import { Loading } from '../../../components/ui/loading';
import { useAccount } from '../../../api/account';
import { usePublicConfig } from '../../../api/config';
import { AccountForm } from './account-form';
import { ChangePasswordForm } from './change-password-form';
import { MailSettingsForm } from './mail-settings-form';

/**
 * The account screen: a loading indicator until GET /user/me answers, then the form; below it the password change
 * and, while the server sends mail, the mail setting. A demo account changes neither.
 */
export function AccountSettings() {
  const account = useAccount();
  const config = usePublicConfig();
  const editable = account.data !== undefined && can(account.data.roleTypeId, 'account.edit');

  return (
    <>
      <Card className="mx-auto" style={{ maxWidth: '36rem' }}>
        <Card.Header as="h1" className="fs-4">
          Account Settings
        </Card.Header>
        <Card.Body>
          {account.isPending && <Loading />}
          {account.data && <AccountForm user={account.data} />}
        </Card.Body>
      </Card>
      {editable && (
        <Card className="mx-auto mt-4" style={{ maxWidth: '36rem' }}>
          <Card.Header as="h2" className="fs-5">
            Change Password
          </Card.Header>
          <Card.Body>
            <p className="text-body-secondary">Your other sessions end when the password changes.</p>
            <ChangePasswordForm />
          </Card.Body>
        </Card>
      )}
      {editable && config.data?.mail && (
        <Card className="mx-auto mt-4" style={{ maxWidth: '36rem' }}>
          <Card.Header as="h2" className="fs-5">
            Mail
          </Card.Header>
          <Card.Body>
            <MailSettingsForm />
          </Card.Body>
        </Card>
      )}
    </>
  );
}
