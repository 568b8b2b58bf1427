import { RoleType, can, type TokenUser } from '@reskin/contract';
import { createContext, useContext } from 'react';

/** pending: a saved token is being checked with GET /user/me at start-up. */
export type SessionStatus = 'pending' | 'anonymous' | 'authenticated';

export interface Session {
  status: SessionStatus;
  user: TokenUser | null;
  /** The role value; logged out it is the demo role (SPEC §4). */
  roleTypeId: number;
  isAdmin: boolean;
  /** Stores a token from login or an account update and takes the user from it. */
  acceptToken: (token: string) => void;
  /** Removes the token, the admin flag and the current user, without navigating. */
  clearSession: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

export function sessionRole(user: TokenUser | null): { roleTypeId: number; isAdmin: boolean } {
  const roleTypeId = user?.roleTypeId ?? RoleType.Demo;
  return { roleTypeId, isAdmin: user !== null && can(roleTypeId, 'admin.area') };
}
