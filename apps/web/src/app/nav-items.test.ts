import { RoleType } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { navItems, type NavState } from './nav-items';

const labels = (state: NavState) => navItems(state).map((item) => item.label);

const anonymous: NavState = {
  status: 'anonymous',
  username: undefined,
  roleTypeId: RoleType.Demo,
  isAdmin: false,
};
const loggedIn = (roleTypeId: number): NavState => ({
  status: 'authenticated',
  username: 'jane',
  roleTypeId,
  isAdmin: roleTypeId === RoleType.Admin,
});

describe('navigation bar visibility (SPEC §2)', () => {
  it('logged out: Home, Login and Register', () => {
    expect(labels(anonymous)).toEqual(['Home', 'Login', 'Register']);
  });

  it('a regular user: My Games, the account link named by the username, and Logout', () => {
    expect(labels(loggedIn(RoleType.User))).toEqual(['Home', 'My Games', 'jane', 'Logout']);
    expect(navItems(loggedIn(RoleType.User)).find((item) => item.label === 'jane')?.to).toBe('/account');
  });

  it('the demo role has no account link', () => {
    expect(labels(loggedIn(RoleType.Demo))).toEqual(['Home', 'My Games', 'Logout']);
  });

  it('an administrator also sees User Games, To Review, Games and Admin', () => {
    expect(labels(loggedIn(RoleType.Admin))).toEqual([
      'Home',
      'My Games',
      'jane',
      'User Games',
      'To Review',
      'Games',
      'Admin',
      'Logout',
    ]);
  });

  it('while a saved token is checked, neither the logged-out nor the logged-in links show', () => {
    expect(labels({ ...anonymous, status: 'pending' })).toEqual(['Home']);
  });

  it('Home matches the root route exactly; every link has its spec target', () => {
    const items = navItems(loggedIn(RoleType.Admin));
    expect(items.filter((item) => item.end).map((item) => item.to)).toEqual(['/']);
    expect(Object.fromEntries(items.map((item) => [item.label, item.to]))).toEqual({
      Home: '/',
      'My Games': '/my-games',
      'User Games': '/user-game-list',
      'To Review': '/to-review',
      Games: '/games',
      Admin: '/admin',
      jane: '/account',
      Logout: '/logout',
    });
  });
});
