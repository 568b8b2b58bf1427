import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';

/** /logout logs out at once (removes the token, the admin flag and the current user) and goes to /. */
export function LogoutRoute() {
  const { clearSession } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    clearSession();
    navigate(paths.home, { replace: true });
  }, [clearSession, navigate]);
  return null;
}
