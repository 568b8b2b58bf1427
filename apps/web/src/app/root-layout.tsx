import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { SessionProvider } from '../lib/session/session-provider';
import { AppNavbar } from './app-navbar';
import { usePageTitle } from './page-title';
import { preloadScreensWhenIdle } from './screens';

/** Every screen: the session (inside the router, so a 401 can navigate), the nav bar, <main> and the tab's title. */
export function RootLayout() {
  // After the first screen rendered, the nav bar's screens load in the background.
  useEffect(preloadScreensWhenIdle, []);
  usePageTitle();
  return (
    <SessionProvider>
      <AppNavbar />
      <main className="container py-4">
        <Outlet />
      </main>
    </SessionProvider>
  );
}
