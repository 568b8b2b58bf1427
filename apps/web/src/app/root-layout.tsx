import { lazy, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { useSession } from '../lib/session/session-context';
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
      <VerifyEmailNotice />
      <main className="container py-4">
        <Outlet />
      </main>
    </SessionProvider>
  );
}

/** The "verify your address" banner's own chunk (issue 28): loaded for a logged-in user only, never on the landing page's first load. */
const VerifyEmailBanner = lazy(() => import('../features/mail/components/verify-email-banner'));

function VerifyEmailNotice() {
  const { status } = useSession();
  if (status !== 'authenticated') return null;
  return (
    <Suspense fallback={null}>
      <VerifyEmailBanner />
    </Suspense>
  );
}
