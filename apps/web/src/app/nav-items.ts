import { can } from '@reskin/contract';
import { paths } from '../config/paths';
import type { SessionStatus } from '../lib/session/session-context';

export interface NavItem {
  label: string;
  to: string;
  /** Active on this exact path only (Home). */
  end?: boolean;
}

export interface NavState {
  status: SessionStatus;
  username: string | undefined;
  roleTypeId: number;
  /** The session's admin flag; the links do not read it, they ask can(roleTypeId, …) (permissions.ts). */
  isAdmin?: boolean;
}

/** The navigation bar's links and who sees them (SPEC §2 "Navigation bar"). */
export function navItems({ status, username, roleTypeId }: NavState): NavItem[] {
  const loggedIn = status === 'authenticated';
  // While a saved token is being checked, neither the logged-out nor the logged-in links show.
  const loggedOut = status === 'anonymous';
  // SPEC §2's order. All links sit on the left: the top-right corner belongs to the toasts.
  const items: (NavItem | false)[] = [
    { label: 'Home', to: paths.home, end: true },
    loggedOut && { label: 'Login', to: paths.login },
    loggedOut && { label: 'Register', to: paths.register },
    loggedIn && { label: 'My Games', to: paths.myGames },
    loggedIn && can(roleTypeId, 'account.edit') && { label: username ?? 'Account', to: paths.account },
    loggedIn && can(roleTypeId, 'userGames.manage') && { label: 'User Games', to: paths.userGames },
    // Beside User Games: the finished versions waiting for a verdict, oldest first.
    loggedIn && can(roleTypeId, 'versions.review') && { label: 'To Review', to: paths.toReview },
    loggedIn && can(roleTypeId, 'games.manage') && { label: 'Games', to: paths.games },
    loggedIn && can(roleTypeId, 'users.manage') && { label: 'Admin', to: paths.admin },
    loggedIn && { label: 'Logout', to: paths.logout },
  ];
  return items.filter((item): item is NavItem => item !== false);
}
