import { limits, type FilePageQuery } from '@reskin/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { filePage, filePageUrl, useFilePages } from './file-pages';

afterEach(cleanup);

const file = (index: number) => ({ path: `img/${String(index).padStart(4, '0')}.png` });
/** A game of `count` files, answered as the server pages them: paths after `after`, at most `limit`. */
const game = (count: number) => Array.from({ length: count }, (_, index) => file(index));
const answer =
  (files: { path: string }[]) =>
  async ({ after, limit }: FilePageQuery) => {
    const later = after === undefined ? files : files.filter((f) => f.path > after);
    return limit === undefined ? later : later.slice(0, limit);
  };

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('a list read first page first (decision 0063)', () => {
  it('puts the page into the URL, and nothing for the whole list', () => {
    expect(filePageUrl('/games/1/files', {})).toBe('/games/1/files');
    expect(filePageUrl('/games/1/files', { limit: 100 })).toBe('/games/1/files?limit=100');
    expect(filePageUrl('/games/1/files', { after: 'a b/c&d.png' })).toBe(
      '/games/1/files?after=a+b%2Fc%26d.png',
    );
  });

  it('keeps where the rest starts: after the last path of a full page, nowhere after a short one', () => {
    expect(filePage([file(0), file(1)], { limit: 2 })).toEqual({
      files: [file(0), file(1)],
      after: file(1).path,
    });
    expect(filePage([file(0)], { limit: 2 })).toEqual({ files: [file(0)] });
    expect(filePage([file(0), file(1)], { after: 'a' })).toEqual({ files: [file(0), file(1)] });
  });

  it('asks for the first page, then for the rest only once allowed, and has every file once', async () => {
    const files = game(limits.filePages.firstPage + 5);
    const fetchPage = vi.fn(answer(files));
    const { result, rerender } = renderHook(
      ({ rest }: { rest: boolean }) => useFilePages({ queryKey: ['files'], fetchPage, enabled: true, rest }),
      { wrapper, initialProps: { rest: false } },
    );
    await waitFor(() => expect(result.current.data).toHaveLength(limits.filePages.firstPage));
    expect(result.current.complete).toBe(false);
    expect(fetchPage.mock.calls).toEqual([[{ limit: limits.filePages.firstPage }]]);

    rerender({ rest: true });
    await waitFor(() => expect(result.current.complete).toBe(true));
    expect(result.current.data).toEqual(files);
    expect(fetchPage.mock.calls.at(-1)).toEqual([{ after: files[limits.filePages.firstPage - 1]!.path }]);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('is whole after the first page for a list shorter than it, and asks nothing more', async () => {
    const fetchPage = vi.fn(answer(game(3)));
    const { result } = renderHook(
      () => useFilePages({ queryKey: ['small'], fetchPage, enabled: true, rest: true }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.complete).toBe(true));
    expect(result.current.data).toHaveLength(3);
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });
});
