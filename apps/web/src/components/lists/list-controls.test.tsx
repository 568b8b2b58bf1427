import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followNavigations } from '../../lib/navigation-in-flight';
import {
  ListEmpty,
  ListPager,
  ListSearch,
  SortHeader,
  searchDebounceMs,
  titleWithTotal,
} from './list-controls';
import { listParams, useListParams } from './use-list-params';

describe('listParams', () => {
  it('searches every search column with an escaped like, sorts and pages', () => {
    expect(
      listParams({ search: '50%_x', sort: { column: 'email', direction: 'desc' }, page: 3, pageSize: 25 }, [
        'username',
        'email',
      ]),
    ).toEqual({
      where: { or: [{ username: { like: '%50\\%\\_x%' } }, { email: { like: '%50\\%\\_x%' } }] },
      order: 'email DESC',
      limit: 25,
      skip: 50,
    });
  });

  it("ands the screen's own condition with the search, and asks no where or order when there is none", () => {
    const base = { sort: null, page: 1, pageSize: 50 };
    expect(listParams({ ...base, search: '' }, ['name'])).toEqual({ limit: 50, skip: 0 });
    expect(listParams({ ...base, search: 'a' }, ['name'], { isActive: true })).toEqual({
      where: { and: [{ name: { like: '%a%' } }, { isActive: true }] },
      limit: 50,
      skip: 0,
    });
  });
});

/** A list screen with every control, its search query and the URL shown as text. */
function Screen() {
  const list = useListParams({ searchColumns: ['username'], sortColumns: ['username'] });
  const location = useLocation();
  return (
    <>
      <ListSearch list={list} label="Search users" />
      <table>
        <thead>
          <tr>
            <SortHeader list={list} column="username">
              Username
            </SortHeader>
          </tr>
        </thead>
      </table>
      <ListEmpty list={list} text="There are no registered users." />
      <ListPager list={list} total={130} />
      <output data-testid="params">{JSON.stringify(list.params)}</output>
      <output data-testid="url">{location.search}</output>
    </>
  );
}

const renderAt = (url: string) =>
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '/', element: <Screen /> }], { initialEntries: [url] })}
    />,
  );
const params = () => JSON.parse(screen.getByTestId('params').textContent ?? '') as Record<string, unknown>;
const url = () => screen.getByTestId('url').textContent;

describe('the list controls', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('reads the page from the URL and keeps keys it does not own', () => {
    renderAt('/?gameId=7&page=3&size=50&sort=username.desc');
    expect(params()).toEqual({ order: 'username DESC', limit: 50, skip: 100 });
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    expect(screen.getByText('130 items')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Username/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    fireEvent.click(screen.getByRole('button', { name: /Username/ }));
    expect(url()).toBe('?gameId=7&size=50&sort=username.asc');
  });

  it('searches once the typing pauses, back on page 1', async () => {
    renderAt('/?page=2');
    const box = screen.getByRole('searchbox', { name: 'Search users' });
    fireEvent.change(box, { target: { value: ' ann ' } });
    await act(async () => vi.advanceTimersByTime(searchDebounceMs - 1));
    expect(url()).toBe('?page=2');
    await act(async () => vi.advanceTimersByTime(1));
    expect(url()).toBe('?q=ann');
    expect(screen.getByText('No results for "ann".')).toBeTruthy();
  });

  it('writes no search into the URL once a link away from the list is loading its screen', async () => {
    let loaded: (module: { Component: () => null }) => void = () => {};
    const router = createMemoryRouter(
      [
        { path: '/', element: <Screen /> },
        {
          path: '/files',
          lazy: () => new Promise<{ Component: () => null }>((resolve) => (loaded = resolve)),
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), { target: { value: 'ann' } });
    await act(async () => void router.navigate('/files'));
    await act(async () => vi.advanceTimersByTime(searchDebounceMs));
    await act(async () => loaded({ Component: () => null }));
    expect(router.state.location.pathname).toBe('/files');
  });

  it('writes no search into the URL when its timer fires after a navigation started but before React rendered it', async () => {
    let loaded: (module: { Component: () => null }) => void = () => {};
    const router = createMemoryRouter(
      [
        { path: '/', element: <Screen /> },
        {
          path: '/play',
          lazy: () => new Promise<{ Component: () => null }>((resolve) => (loaded = resolve)),
        },
      ],
      { initialEntries: ['/'] },
    );
    const stop = followNavigations(router);
    render(<RouterProvider router={router} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), { target: { value: 'ann' } });
    // The click on Play and the debounce's end in one task: no render in between (outside act, React waits).
    void router.navigate('/play');
    vi.advanceTimersByTime(searchDebounceMs);
    await act(async () => loaded({ Component: () => null }));
    expect(router.state.location.pathname).toBe('/play');
    stop();
  });

  it('turns pages, changes the page size, and goes to the last page past the end', async () => {
    renderAt('/?page=9');
    expect(url()).toBe('?page=6');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(url()).toBe('?page=5');
    fireEvent.change(screen.getByLabelText('Page size'), { target: { value: '100' } });
    expect(url()).toBe('?size=100');
    expect(screen.getByText('There are no registered users.')).toBeTruthy();
  });
});

describe('titleWithTotal', () => {
  it('shows the total once it is known, and no false 0 before', () => {
    expect(titleWithTotal('Registered users', 12)).toBe('Registered users (12)');
    expect(titleWithTotal('Registered users', 0)).toBe('Registered users (0)');
    expect(titleWithTotal('Registered users', undefined)).toBe('Registered users');
  });
});
