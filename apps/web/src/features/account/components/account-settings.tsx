import Card from 'react-bootstrap/Card';
import { Loading } from '../../../components/ui/loading';
import { useAccount } from '../../../api/account';
import { AccountForm } from './account-form';

/** The account screen: a loading indicator until GET /user/me answers, then the form. */
export function AccountSettings() {
  const account = useAccount();

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
