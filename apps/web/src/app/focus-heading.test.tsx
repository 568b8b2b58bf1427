import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useFocusHeadingOnNavigation } from './focus-heading';

function Layout() {
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main);
  return (
    <>
      <nav>
        <a href="/elsewhere">A link of the bar</a>
      </nav>
      <main ref={main}>
        <Outlet />
      </main>
    </>
  );
}

/** A screen whose heading comes with its data, after the first render. */
function LateHeading() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    lateHeadingReady = () => setReady(true);
  }, []);
  return ready ? <h1>Late</h1> : <p>Loading</p>;
}
let lateHeadingReady = () => {};

/** A screen that opens a dialog at once (a link to a file's notes): the dialog, outside <main>, focuses itself. */
function OpensDialog() {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <>
      <h1>With a dialog</h1>
      {createPortal(<button ref={button}>Close the dialog</button>, document.body)}
    </>
  );
}

function open(initial: string) {
  const router = createMemoryRouter(
    [
      {
        element: <Layout />,
        children: [
          { path: '/one', element: <h1>One</h1> },
          { path: '/two', element: <h1>Two</h1> },
          { path: '/late', element: <LateHeading /> },
          { path: '/dialog', element: <OpensDialog /> },
          {
            path: '/form',
            element: (
              <>
                <h1>Form</h1>
                <input aria-label="Email" autoFocus />
              </>
            ),
          },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  render(<RouterProvider router={router} />);
  return (to: string) => act(async () => void (await router.navigate(to)));
}

describe('focus after a page change (decision 0051)', () => {
  afterEach(cleanup);

  it('leaves the first load alone, then focuses the new page’s h1 on every path change, not on a query change', async () => {
    const go = open('/one');
    expect(document.activeElement).toBe(document.body);

    screen.getByRole('link', { name: 'A link of the bar' }).focus();
    await go('/two');
    const two = screen.getByRole('heading', { level: 1, name: 'Two' });
    expect(document.activeElement).toBe(two);
    expect(two.getAttribute('tabindex')).toBe('-1');

    screen.getByRole('link', { name: 'A link of the bar' }).focus();
    await go('/two?tab=files');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'A link of the bar' }));
  });

  it('focuses a heading drawn after the page (its data loaded) when it appears', async () => {
    const go = open('/one');
    await go('/late');
    expect(document.activeElement).toBe(document.body);
    await act(async () => lateHeadingReady());
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Late' }));
  });

  it('keeps the focus of a field or dialog the new page focused itself, and of a control the user moved to meanwhile', async () => {
    const go = open('/one');
    await go('/form');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));

    await go('/dialog');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close the dialog' }));

    await go('/late');
    screen.getByRole('link', { name: 'A link of the bar' }).focus();
    await act(async () => lateHeadingReady());
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'A link of the bar' }));
  });
});
