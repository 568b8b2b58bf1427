import { legalDocuments } from '@reskin/contract';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { legalPagePath, paths } from '../config/paths';
import { AccountSettings } from '../features/account/components/account-settings';
import { AdminUsers } from '../features/admin-users/components/admin-users';
import { LoginForm } from '../features/auth/components/login-form';
import { RegisterCard } from '../features/auth/components/register-card';
import { GameFilesScreen } from '../features/game-files/components/game-files-screen';
import { GamePlayScreen } from '../features/game-play/components/game-play-screen';
import { GamesScreen } from '../features/games/components/games-screen';
import { Landing } from '../features/landing/components/landing';
import { LegalPage } from '../features/legal/components/legal-page';
import { DemoPlay } from '../features/my-games/components/demo-play';
import { MyGamesScreen } from '../features/my-games/components/my-games-screen';
import { VersionFormScreen } from '../features/my-games/components/version-form-screen';
import { VersionsScreen } from '../features/my-games/components/versions-screen';
import { Workbench } from '../features/my-games/components/workbench';
import { UserGames } from '../features/user-games/components/user-games';
import { VersionFiles } from '../features/version-review/components/version-files';
import { VersionList } from '../features/version-review/components/version-list';
import { VersionPlay } from '../features/version-review/components/version-play';
import { RequireAdmin, RequireGuest, RequireUser } from './guards';
import { RootLayout } from './root-layout';
import { LogoutRoute } from './routes/logout';

/** SPEC §2's route table with its guards. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <Landing /> },
      { path: paths.register, element: <RegisterCard /> },
      { element: <RequireGuest />, children: [{ path: paths.login, element: <LoginForm /> }] },
      { path: paths.logout, element: <LogoutRoute /> },
      ...legalDocuments.map(({ document }) => ({
        path: legalPagePath(document),
        element: <LegalPage key={document} document={document} />,
      })),
      {
        element: <RequireUser />,
        children: [
          { path: paths.account, element: <AccountSettings /> },
          { path: paths.myGames, element: <MyGamesScreen /> },
          { path: paths.myGameVersions, element: <VersionsScreen /> },
          { path: paths.myGameVersionAdd, element: <VersionFormScreen /> },
          { path: paths.workbench, element: <Workbench defaultTab="files" /> },
          { path: paths.myGameVersionPlay, element: <Workbench defaultTab="play-version" /> },
          { path: paths.demo, element: <DemoPlay /> },
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
