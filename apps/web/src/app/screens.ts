import { paths } from '../config/paths';

/**
 * Every screen but the landing page is its own chunk, loaded on first use (the landing page's JS
 * budget). The router's `lazy` routes call these; the nav bar preloads a link's screen on hover or focus, and
 * the root layout preloads the nav bar's screens once the browser is idle, so no screen waits on the network.
 */
export const screens = {
  account: () => import('../features/account/components/account-settings'),
  adminUsers: () => import('../features/admin-users/components/admin-users'),
  login: () => import('../features/auth/components/login-form'),
  register: () => import('../features/auth/components/register-card'),
  forgotPassword: () => import('../features/mail/components/forgot-password'),
  resetPassword: () => import('../features/mail/components/reset-password'),
  verifyEmail: () => import('../features/mail/components/verify-email'),
  gameFiles: () => import('../features/game-files/components/game-files-screen'),
  gamePlay: () => import('../features/game-play/components/game-play-screen'),
  games: () => import('../features/games/components/games-screen'),
  legal: () => import('../features/legal/components/legal-page'),
  demoPlay: () => import('../features/my-games/components/demo-play'),
  myGames: () => import('../features/my-games/components/my-games-screen'),
  versionForm: () => import('../features/my-games/components/version-form-screen'),
  versions: () => import('../features/my-games/components/versions-screen'),
  workbench: () => import('../features/my-games/components/workbench'),
  userGames: () => import('../features/user-games/components/user-games'),
  versionFiles: () => import('../features/version-review/components/version-files'),
  versionList: () => import('../features/version-review/components/version-list'),
  versionPlay: () => import('../features/version-review/components/version-play'),
  toReview: () => import('../features/review/components/to-review-screen'),
} as const;

/** The screen behind each nav bar link (nav-items.ts). */
const navScreens: Partial<Record<string, () => Promise<unknown>>> = {
  [paths.login]: screens.login,
  [paths.register]: screens.register,
  [paths.myGames]: screens.myGames,
  [paths.account]: screens.account,
  [paths.userGames]: screens.userGames,
  [paths.toReview]: screens.toReview,
  [paths.games]: screens.games,
  [paths.admin]: screens.adminUsers,
};

/** Starts loading the screen a nav link leads to; a failure is left to the navigation itself. */
export function preloadScreen(to: string): void {
  navScreens[to]?.().catch(() => {});
}

/** Preloads every nav bar screen once the browser is idle (requestIdleCallback, else a timeout). */
export function preloadScreensWhenIdle(): () => void {
  const preloadAll = () => Object.keys(navScreens).forEach(preloadScreen);
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(preloadAll, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(preloadAll, 1000);
  return () => window.clearTimeout(id);
}
