import { limits } from '@reskin/contract';
import { useCallback, useEffect, useRef, useState } from 'react';

/** What a person does that shows they go beyond the first view: the whole list is wanted then. */
const personEvents = ['scroll', 'wheel', 'keydown', 'pointerdown', 'touchstart', 'dragenter'] as const;

export interface FirstScreenOptions {
  /** The screen's first pages are in and rendered. */
  ready: boolean;
  /** Its first view has pictures (image cards, thumbnails): shown once the first of them has loaded. */
  pictures: boolean;
  /** The whole list is wanted at once (a link to one file, which may be beyond the first page). */
  now?: boolean;
}

/**
 * Whether a list screen's first view is shown, so the rest of its lists may come (decision 0063). The lists are read
 * before the screen knows what its first view holds, so it keeps the answer (`useRestOfLists`) and reports here:
 * once `ready`, at the first picture that loads (or fails) in the page, or, without pictures, the frame after the
 * first view was painted; at once when the person scrolls, types, clicks, touches or drags something in; and at the
 * latest limits.filePages.restAtLatestMs after `ready` (a first picture far below the fold, which a lazy image never
 * loads). `onShown` runs once.
 */
export function useFirstScreenShown(
  { ready, pictures, now = false }: FirstScreenOptions,
  onShown: () => void,
) {
  const fired = useRef(false);
  useEffect(() => {
    if (fired.current) return;
    const show = () => {
      if (fired.current) return;
      fired.current = true;
      onShown();
    };
    if (now) return show();
    if (!ready) return;
    for (const event of personEvents) window.addEventListener(event, show, { capture: true, passive: true });
    let frame = 0;
    const timer = window.setTimeout(show, limits.filePages.restAtLatestMs);
    // Images do not bubble their load and error events, but they pass the document on their way down.
    const onPicture = (event: Event) => {
      if (event.target instanceof HTMLImageElement) show();
    };
    if (pictures) {
      document.addEventListener('load', onPicture, true);
      document.addEventListener('error', onPicture, true);
    } else {
      // The first frame paints the view; the one after it runs once that is done.
      frame = requestAnimationFrame(() => (frame = requestAnimationFrame(show)));
    }
    return () => {
      for (const event of personEvents) window.removeEventListener(event, show, { capture: true });
      document.removeEventListener('load', onPicture, true);
      document.removeEventListener('error', onPicture, true);
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [ready, pictures, now, onShown]);
}

/**
 * Whether a screen's lists may ask for their rest, and the callback that allows it (useFirstScreenShown's `onShown`).
 */
export function useRestOfLists(): [rest: boolean, allowRest: () => void] {
  const [rest, setRest] = useState(false);
  const allowRest = useCallback(() => setRest(true), []);
  return [rest, allowRest];
}
