import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';

/**
 * Logout (SPEC §4) always goes through the open /logout route, which clears the session and goes to the
 * root route. Clearing the session on a guarded screen first would let its guard send the user to /login.
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => navigate(paths.logout, { replace: true }), [navigate]);
}
