import { Outlet } from 'react-router';
import { SessionProvider } from '../lib/session/session-provider';
import { AppNavbar } from './app-navbar';

/** Every screen: the session (inside the router, so a 401 can navigate), the nav bar and <main>. */
export function RootLayout() {
  return (
    <SessionProvider>
      <AppNavbar />
      <main className="container py-4">
        <Outlet />
      </main>
    </SessionProvider>
  );
}
