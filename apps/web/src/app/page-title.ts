import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { documentTitle, type PageHandle } from '../config/page-titles';

const isPageHandle = (handle: unknown): handle is PageHandle =>
  typeof handle === 'object' && handle !== null && 'title' in handle;

/** The browser tab's title from the deepest route with a title (router.tsx): 'Games · Reskin Studio'. */
export function usePageTitle(): void {
  const matches = useMatches();
  const handle = matches.map((match) => match.handle).findLast(isPageHandle);
  const title = documentTitle(handle?.title);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
