import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { appName, documentTitle, pageTitles } from '../config/page-titles';
import { paths } from '../config/paths';
import { usePageTitle } from './page-title';
import { routes } from './router';

function Layout() {
  usePageTitle();
  return <Outlet />;
}

describe('page titles', () => {
  afterEach(cleanup);

  it('gives every route of paths.ts its title as its handle', () => {
    const titles = new Map<string, unknown>();
    const walk = (table: RouteObject[]) =>
      table.forEach((route) => {
        if (route.path) titles.set(route.path, (route.handle as { title?: unknown } | undefined)?.title);
        if (route.children) walk(route.children);
      });
    walk(routes);
    for (const path of Object.values(paths)) {
      if (path === paths.home) continue; // the index route: the product's name alone
      expect(titles.get(path), path).toBe(pageTitles[path]);
    }
    expect(titles.get('/terms-of-use')).toBe('Terms of Use');
  });

  it("sets the browser tab's title from the deepest titled route, the product's name where there is none", async () => {
    const router = createMemoryRouter(
      [
        {
          element: <Layout />,
          children: [
            { index: true, element: null },
            { path: paths.games, handle: { title: pageTitles[paths.games] }, element: null },
          ],
        },
      ],
      { initialEntries: [paths.games] },
    );
    render(<RouterProvider router={router} />);
    expect(document.title).toBe('Games · Reskin Studio');
    await act(async () => void (await router.navigate(paths.home)));
    expect(document.title).toBe(appName);
    expect(documentTitle('Admin')).toBe(`Admin · ${appName}`);
  });
});
