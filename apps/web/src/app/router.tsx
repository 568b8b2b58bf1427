import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { AccountSettings } from '../features/account/components/account-settings';
import { AdminUsers } from '../features/admin-users/components/admin-users';
import { LoginForm } from '../features/auth/components/login-form';
import { RegisterCard } from '../features/auth/components/register-card';
import { GameFilesScreen } from '../features/game-files/components/game-files-screen';
import { GamePlayScreen } from '../features/game-play/components/game-play-screen';
import { GamesScreen } from '../features/games/components/games-screen';
import { Landing } from '../features/landing/components/landing';
import { UserGames } from '../features/user-games/components/user-games';
import { VersionFiles } from '../features/version-review/components/version-files';
import { VersionList } from '../features/version-review/components/version-list';
import { VersionPlay } from '../features/version-review/components/version-play';
import { RequireAdmin, RequireGuest, RequireUser } from './guards';
import { RootLayout } from './root-layout';
import { ComingSoonRoute } from './routes/coming-soon';
import { LogoutRoute } from './routes/logout';

const comingSoon = (path: string): RouteObject => ({ path, element: <ComingSoonRoute /> });

/** SPEC §2's route table with its guards. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <Landing /> },
      { path: paths.register, element: <RegisterCard /> },
      { element: <RequireGuest />, children: [{ path: paths.login, element: <LoginForm /> }] },
      { path: paths.logout, element: <LogoutRoute /> },
      {
        element: <RequireUser />,
        children: [
          { path: paths.account, element: <AccountSettings /> },
          comingSoon(paths.myGames),
          comingSoon(paths.myGameVersions),
          comingSoon(paths.myGameVersionAdd),
          comingSoon(paths.workbench),
          comingSoon(paths.myGameVersionPlay),
          comingSoon(paths.demo),
        ],
      },
      {
        element: <RequireAdmin />,
        children: [
          { path: paths.games, element: <GamesScreen /> },
          { path: paths.gamePlay, element: <GamePlayScreen /> },
          { path: paths.gameFiles, element: <GameFilesScreen /> },
          { path: paths.userGames, element: <UserGames /> },
          { path: paths.userGameVersions, element: <VersionList /> },
          { path: paths.userGameVersionFiles, element: <VersionFiles /> },
          { path: paths.userGameVersionPlay, element: <VersionPlay /> },
          { path: paths.admin, element: <AdminUsers /> },
        ],
      },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
