import { landing } from '@reskin/contract';
import { Link } from 'react-router';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session/session-context';
import { usePublicConfig } from '../../../api/config';

/** The landing screen (SPEC §1, §2): greeting, subheading, and Login or My Games. */
export function Landing() {
  const config = usePublicConfig();
  const { status } = useSession();

  if (config.isPending) return <Loading />;

  return (
    <section className="py-5 text-center">
      {config.data && <h1 className="display-5 mb-3">{landing.heading(config.data.productName)}</h1>}
      <p className="lead mb-4">{landing.subheading}</p>
      {status === 'anonymous' && (
        <Link className="btn btn-primary btn-lg" to={paths.login}>
          Login
        </Link>
      )}
      {status === 'authenticated' && (
        <Link className="btn btn-primary btn-lg" to={paths.myGames}>
          My Games
        </Link>
      )}
    </section>
  );
}
