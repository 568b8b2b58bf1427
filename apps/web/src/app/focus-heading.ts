import { useLayoutEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * Focus after a page change (decision 0051): when the path changes, the page's h1 takes the focus, so a keyboard or
 * screen reader user starts on the new page (its heading is read, once) instead of on the body or on the link they
 * followed. A lazy screen or one that loads its data draws its h1 later: it is focused when it appears. Nothing
 * moves on the first load of a page (the browser's own start, an autofocused field keeps its focus), on a change of
 * the query alone (a tab, a list's search or page), or when focus already is in the page or was moved since.
 */
export function useFocusHeadingOnNavigation(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  // A layout effect: it runs before the new page's own effects, so a dialog the page opens at once, or anything it
  // focuses itself, takes the focus after the heading and keeps it.
  useLayoutEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const root = main.current;
    if (!root) return;
    const before = document.activeElement;
    // Done (true) once the heading has the focus, or once something else should keep it.
    const focusHeading = (): boolean => {
      const active = document.activeElement;
      const moved = active !== before && active !== null && active !== document.body;
      if (moved || (active !== null && active !== root && root.contains(active))) return true;
      const heading = root.querySelector('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, main]);
}
