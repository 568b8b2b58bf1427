import { can } from '@reskin/contract';
import { Navigate, Outlet } from 'react-router';
import { Loading } from '../components/ui/loading';
import { paths } from '../config/paths';
import { useSession } from '../lib/session/session-context';

// While the start-up check of a saved token runs, guards wait instead of redirecting.

/** Logged-in guard: anonymous visitors go to /login. */
export function RequireUser() {
  const { status } = useSession();
  if (status === 'pending') return <Loading />;
  if (status === 'anonymous') return <Navigate to={paths.login} replace />;
  return <Outlet />;
}

/** Admin guard: anonymous visitors go to /login, logged-in non-admins to /. */
export function RequireAdmin() {
  const { status, roleTypeId } = useSession();
  if (status === 'pending') return <Loading />;
  if (status === 'anonymous') return <Navigate to={paths.login} replace />;
  if (!can(roleTypeId, 'admin.area')) return <Navigate to={paths.home} replace />;
  return <Outlet />;
}

/** Login is for visitors: a logged-in user goes to /. */
export function RequireGuest() {
  const { status } = useSession();
  if (status === 'pending') return <Loading />;
  if (status === 'authenticated') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
