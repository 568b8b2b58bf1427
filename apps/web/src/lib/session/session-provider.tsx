import { messages, type TokenUser } from '@reskin/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { setUnauthorizedHandler } from '../api-client';
import { failureTitles } from '../failure-titles';
import { notifyError } from '../toasts';
import { getCurrentUser, userFromToken } from './current-user';
import { SessionContext, sessionRole, type Session, type SessionStatus } from './session-context';
import { clearToken, readToken, writeToken } from './token-storage';

interface SessionState {
  status: SessionStatus;
  user: TokenUser | null;
}

function initialState(): SessionState {
  return { status: readToken() ? 'pending' : 'anonymous', user: null };
}

/** Holds the logged-in user. Lives inside the router: a 401 from any call navigates to /login. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(initialState);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const startsPending = state.status === 'pending';

  const clearSession = useCallback(() => {
    clearToken();
    setState({ status: 'anonymous', user: null });
    // Nothing the previous user loaded may show to the next one.
    queryClient.clear();
  }, [queryClient]);

  const acceptToken = useCallback((token: string) => {
    const user = userFromToken(token);
    writeToken(token);
    setState({ status: 'authenticated', user });
  }, []);

  // SES-4: a 401 from any call (the start-up check included) means the session the browser holds has ended
  // (expired, revoked by a password reset or a suspension, the user deleted): it goes to /login with one toast. The
  // first 401 clears the token, so the other calls that were under way when it ended add no toast of their own.
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const hadSession = readToken() !== null;
      clearSession();
      navigate(paths.login);
      if (hadSession) notifyError(failureTitles.sessionEnded, messages.sessionEnded);
    });
    return () => setUnauthorizedHandler(null);
  }, [clearSession, navigate]);

  // Start-up: a saved token logs the user in only if the server still accepts it; a 401 ends it as above.
  useEffect(() => {
    // The token may already be gone: /logout, rendered below, clears it before this effect runs.
    if (!startsPending || !readToken()) return;
    const controller = new AbortController();
    // Only a still-pending session is settled here, so a logout that raced the check stays a logout.
    const settle = (next: SessionState) =>
      setState((current) => (current.status === 'pending' ? next : current));
    getCurrentUser(controller.signal)
      .then((user) => settle({ status: 'authenticated', user }))
      .catch(() => {
        if (controller.signal.aborted) return;
        clearToken();
        settle({ status: 'anonymous', user: null });
      });
    return () => controller.abort();
  }, [startsPending]);

  const value = useMemo<Session>(
    () => ({ ...state, ...sessionRole(state.user), acceptToken, clearSession }),
    [state, acceptToken, clearSession],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
