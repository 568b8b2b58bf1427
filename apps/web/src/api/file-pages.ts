import { limits, type FilePageQuery } from '@reskin/contract';
import { useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';

/** One answer of a list by path, and where the next one starts (undefined: it was the last). */
export interface FilePage<T> {
  files: T[];
  after?: string;
}

/** A list's pages as the query cache keeps them. */
export type FilePagesData<T> = InfiniteData<FilePage<T>, FilePageQuery>;

/** `base` with `?after=&limit=` for a page (decision 0063); `base` alone asks for every file. */
export function filePageUrl(base: string, { after, limit }: FilePageQuery): string {
  const query = new URLSearchParams();
  if (after !== undefined) query.set('after', after);
  if (limit !== undefined) query.set('limit', String(limit));
  const text = query.toString();
  return text === '' ? base : `${base}?${text}`;
}

/**
 * A page as the cache keeps it: the next page starts after the last path the server answered, fixed here so that
 * a file put into the cached list later (an upload's answer) does not move where the rest starts.
 */
export function filePage<T extends { path: string }>(files: T[], { limit }: FilePageQuery): FilePage<T> {
  const full = limit !== undefined && files.length >= limit;
  return full ? { files, after: files.at(-1)?.path } : { files };
}

/** The pages' files in one list (one function for every list, so the query keeps its answer between renders). */
function everyFile<T>(data: FilePagesData<T>): T[] {
  return data.pages.flatMap((page) => page.files);
}

export interface FilePagesOptions<T> {
  queryKey: QueryKey;
  /** One page of the list (FilePageQuery's `after` and `limit`), as the server answers it. */
  fetchPage: (page: FilePageQuery) => Promise<T[]>;
  enabled: boolean;
  /** Whether to ask for the rest now: once the screen's first view is shown (useFirstScreenShown). */
  rest: boolean;
}

/** A list read in two asks, and whether it is whole yet. */
export interface FilePages<T> {
  /** Every file asked for so far, in the server's path order; undefined until the first page is in. */
  data: T[] | undefined;
  /** True once every file is in (the first page was short, or the rest has come). */
  complete: boolean;
  isLoading: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * A game's files, their usage or a version's files read as a screen shows them (decision 0063): first the first
 * limits.filePages.firstPage files by path (what the first screen shows, a small answer parsed at once), then, when
 * `rest` turns true, every file after them in one more ask. A refetch asks both again (TanStack Query refetches the
 * pages it holds), each revalidated by the browser (a 304 when unchanged).
 */
export function useFilePages<T extends { path: string }>({
  queryKey,
  fetchPage,
  enabled,
  rest,
}: FilePagesOptions<T>): FilePages<T> {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: async ({ pageParam }) => filePage(await fetchPage(pageParam), pageParam),
    initialPageParam: { limit: limits.filePages.firstPage } as FilePageQuery,
    // The rest in one ask: every file after the first page's last.
    getNextPageParam: (last: FilePage<T>): FilePageQuery | undefined =>
      last.after === undefined ? undefined : { after: last.after },
    select: everyFile<T>,
    enabled,
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (rest && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [rest, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return {
    data: query.data,
    complete: query.data !== undefined && !hasNextPage,
    isLoading: query.isLoading,
    isError,
    refetch: query.refetch,
  };
}
