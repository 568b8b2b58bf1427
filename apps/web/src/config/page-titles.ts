import { paths, type AppPath } from './paths';

/** The product's name: the browser tab's title on the landing page, and the end of every other screen's. */
export const appName = 'Reskin Studio';

/**
 * The title of each screen of paths.ts (every tab read "Reskin Studio"); null for the landing page, whose
 * tab shows the product's name alone. A Record over every path, so a new route cannot go without a title.
 */
export const pageTitles: Record<AppPath, string | null> = {
  [paths.home]: null,
  [paths.register]: 'Register',
  [paths.login]: 'Login',
  [paths.logout]: 'Logout',
  [paths.forgotPassword]: 'Forgot Password',
  [paths.resetPassword]: 'Reset Password',
  [paths.verifyEmail]: 'Verify Email',
  [paths.account]: 'Account',
  [paths.myGames]: 'My Games',
  [paths.myGameVersions]: 'My Versions',
  [paths.myGameVersionAdd]: 'Version',
  [paths.workbench]: 'Workbench',
  [paths.myGameVersionPlay]: 'Play Your Version',
  [paths.demo]: 'Demo',
  [paths.games]: 'Games',
  [paths.gamePlay]: 'Play Game',
  [paths.gameFiles]: 'Game Files',
  [paths.userGames]: 'User Games',
  [paths.userGameVersions]: 'User Game Versions',
  [paths.userGameVersionFiles]: 'Version Files',
  [paths.userGameVersionPlay]: 'Play User Version',
  [paths.toReview]: 'To Review',
  [paths.admin]: 'Admin',
};

/** A browser tab's title: 'Games · Reskin Studio', or the product's name alone. */
export const documentTitle = (title: string | null | undefined) =>
  title ? `${title} · ${appName}` : appName;

/** A route's handle: its page's title (null: the product's name alone). */
export interface PageHandle {
  title: string | null;
}
