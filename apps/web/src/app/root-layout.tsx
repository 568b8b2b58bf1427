import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet } from 'react-router';
import { useSession } from '../lib/session/session-context';
import { SessionProvider } from '../lib/session/session-provider';
import { AppNavbar } from './app-navbar';
import { useFocusHeadingOnNavigation } from './focus-heading';
import { usePageTitle } from './page-title';
import { preloadScreensWhenIdle } from './screens';

/**
 * Every screen: the session (inside the router, so a 401 can navigate), the nav bar, <main>, the tab's title, and
 * the focus on the new page's heading after a page change.
 */
export function RootLayout() {
  // After the first screen rendered, the nav bar's screens load in the background.
  useEffect(preloadScreensWhenIdle, []);
  usePageTitle();
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main);
  return (
    <SessionProvider>
      <AppNavbar />
      <VerifyEmailNotice />
      <main ref={main} className="container py-4">
        <Outlet />
      </main>
    </SessionProvider>
  );
}

/** The "verify your address" banner's own chunk: loaded for a logged-in user only, never on the landing page's first load. */
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
