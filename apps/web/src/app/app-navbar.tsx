import { lazy, Suspense } from 'react';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from '../lib/session/session-context';
import { navItems } from './nav-items';
import { preloadScreen } from './screens';

/**
 * The inbox's bell, only for a logged-in user and in a chunk of its own: the nav bar is on the landing
 * page, whose JS budget leaves no room for the inbox's schemas (scripts/check-bundle-size.mjs).
 */
const InboxBell = lazy(async () => ({
  default: (await import('../features/inbox/components/inbox-bell')).InboxBell,
}));

/** The navigation bar: the one role="navigation" landmark of the page. */
export function AppNavbar() {
  const { status, user, roleTypeId } = useSession();
  const items = navItems({ status, username: user?.username, roleTypeId });

  return (
    <Navbar expand="md" bg="dark" data-bs-theme="dark" collapseOnSelect>
      <Container>
        <Navbar.Brand as={Link} to={paths.home}>
          Reskin Studio
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="main-nav" />
        <Navbar.Collapse id="main-nav">
          <Nav className="me-auto">
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className="nav-link"
                onMouseEnter={() => preloadScreen(item.to)}
                onFocus={() => preloadScreen(item.to)}
              >
                {item.label}
              </NavLink>
            ))}
            {status === 'authenticated' && (
              <Suspense fallback={null}>
                <InboxBell />
              </Suspense>
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
