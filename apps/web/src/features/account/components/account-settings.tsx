import { useEffect } from 'react';
import Card from 'react-bootstrap/Card';
import { Loading } from '../../../components/ui/loading';
import { useAccount } from '../api/get-account';
import { AccountForm } from './account-form';

/** The account screen: a loading indicator until GET /user/me answers, then the form. */
export function AccountSettings() {
  const account = useAccount();

  useEffect(() => {
    // SPEC §8: a load error is only logged (the client has already toasted it).
    if (account.error) console.error('account load failed', account.error);
  }, [account.error]);

  return (
    <Card className="mx-auto" style={{ maxWidth: '36rem' }}>
      <Card.Header as="h1" className="fs-4">
        Account Settings
      </Card.Header>
      <Card.Body>
        {account.isPending && <Loading />}
        {account.data && <AccountForm user={account.data} />}
      </Card.Body>
    </Card>
  );
}
