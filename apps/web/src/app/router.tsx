import { legalDocuments } from '@reskin/contract';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { followNavigations } from '../lib/navigation-in-flight';
import { Loading } from '../components/ui/loading';
import { pageTitles, type PageHandle } from '../config/page-titles';
import { legalPagePath, paths, type AppPath } from '../config/paths';
import { Landing } from '../features/landing/components/landing';
import { RequireAdmin, RequireGuest, RequireUser } from './guards';
import { RootLayout } from './root-layout';
import { LogoutRoute } from './routes/logout';
import { screens } from './screens';

/** SPEC §2's route table with its guards; each screen's title is its route's handle (titled below). */
const routeTable: RouteObject[] = [
  {
    element: <RootLayout />,
    // The first screen of a visit is a lazy route: until its chunk is loaded, the page shows this (without one
    // React Router warns "No HydrateFallback element provided" on every load, and shows nothing).
    hydrateFallbackElement: <Loading />,
    children: [
      { index: true, element: <Landing /> },
      { path: paths.register, lazy: async () => ({ Component: (await screens.register()).RegisterCard }) },
      {
        element: <RequireGuest />,
        children: [
          { path: paths.login, lazy: async () => ({ Component: (await screens.login()).LoginForm }) },
        ],
      },
      { path: paths.logout, element: <LogoutRoute /> },
      // Mail: open to anyone, logged in or not (a mailed link may be opened in either).
      {
        path: paths.forgotPassword,
        lazy: async () => ({ Component: (await screens.forgotPassword()).ForgotPassword }),
      },
      {
        path: paths.resetPassword,
        lazy: async () => ({ Component: (await screens.resetPassword()).ResetPassword }),
      },
      {
        path: paths.verifyEmail,
        lazy: async () => ({ Component: (await screens.verifyEmail()).VerifyEmail }),
      },
      ...legalDocuments.map(({ document, title }) => ({
        path: legalPagePath(document),
        handle: { title } satisfies PageHandle,
        lazy: async () => {
          const { LegalPage } = await screens.legal();
          return { element: <LegalPage key={document} document={document} /> };
        },
      })),
      {
        element: <RequireUser />,
        children: [
          {
            path: paths.account,
            lazy: async () => ({ Component: (await screens.account()).AccountSettings }),
          },
          { path: paths.myGames, lazy: async () => ({ Component: (await screens.myGames()).MyGamesScreen }) },
          {
            path: paths.myGameVersions,
            lazy: async () => ({ Component: (await screens.versions()).VersionsScreen }),
          },
          {
            path: paths.myGameVersionAdd,
            lazy: async () => ({ Component: (await screens.versionForm()).VersionFormScreen }),
          },
          {
            path: paths.workbench,
            lazy: async () => {
              const { Workbench } = await screens.workbench();
              return { element: <Workbench defaultTab="files" /> };
            },
          },
          {
            path: paths.myGameVersionPlay,
            lazy: async () => {
              const { Workbench } = await screens.workbench();
              return { element: <Workbench defaultTab="play-version" /> };
            },
          },
          { path: paths.demo, lazy: async () => ({ Component: (await screens.demoPlay()).DemoPlay }) },
        ],
      },
      {
        element: <RequireAdmin />,
        children: [
          { path: paths.games, lazy: async () => ({ Component: (await screens.games()).GamesScreen }) },
          {
            path: paths.gamePlay,
            lazy: async () => ({ Component: (await screens.gamePlay()).GamePlayScreen }),
          },
          {
            path: paths.gameFiles,
            lazy: async () => ({ Component: (await screens.gameFiles()).GameFilesScreen }),
          },
          { path: paths.userGames, lazy: async () => ({ Component: (await screens.userGames()).UserGames }) },
          {
            path: paths.userGameVersions,
            lazy: async () => ({ Component: (await screens.versionList()).VersionList }),
          },
          {
            path: paths.userGameVersionFiles,
            lazy: async () => ({ Component: (await screens.versionFiles()).VersionFiles }),
          },
          {
            path: paths.userGameVersionPlay,
            lazy: async () => ({ Component: (await screens.versionPlay()).VersionPlay }),
          },
          {
            path: paths.toReview,
            lazy: async () => ({ Component: (await screens.toReview()).ToReviewScreen }),
          },
          { path: paths.admin, lazy: async () => ({ Component: (await screens.adminUsers()).AdminUsers }) },
        ],
      },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

const isAppPath = (path: string | undefined): path is AppPath => path !== undefined && path in pageTitles;

/** Gives every route of a path in paths.ts its page title (pageTitles) as its handle, which RootLayout shows. */
function titled(table: RouteObject[]): RouteObject[] {
  return table.map((route) => {
    const handle: PageHandle | undefined = isAppPath(route.path)
      ? { title: pageTitles[route.path] }
      : undefined;
    return {
      ...route,
      ...(handle && { handle }),
      ...(route.children && { children: titled(route.children) }),
    } as RouteObject;
  });
}

export const routes = titled(routeTable);

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  followNavigations(router);
  return router;
}
