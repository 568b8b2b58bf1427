/**
 * Whether this document's cross-origin isolation fits the game it frames (decision 0022). The server serves a play
 * screen of an isolated game with COOP and COEP, but only on a document load: a screen reached by a client-side
 * navigation keeps the headers of the page it started on. So a play screen whose document does not fit its game
 * (not isolated for an isolated game, or isolated for one that is not, whose frame COEP would block) loads itself
 * again, once per URL.
 */
export type DocumentIsolation = 'ready' | 'reload' | 'unavailable';

const reloadKey = 'reskin.isolation-reload';

function reloadedFor(): string | null {
  try {
    return sessionStorage.getItem(reloadKey);
  } catch {
    return null;
  }
}

/** What to do for a frame of a game that does (or does not) need isolation, in this document. */
export function documentIsolation(wanted: boolean): DocumentIsolation {
  const isolated = window.crossOriginIsolated === true;
  if (isolated === wanted) return 'ready';
  // Already loaded again for this URL: the browser or the connection (isolation needs HTTPS) cannot give it.
  if (reloadedFor() === window.location.href) return wanted ? 'unavailable' : 'ready';
  return 'reload';
}

/** Loads this URL again as a document (the server then sends the headers the game needs). */
export function reloadForIsolation(): void {
  try {
    sessionStorage.setItem(reloadKey, window.location.href);
  } catch {
    // Without session storage a second load could repeat: still better than a game that cannot start.
  }
  window.location.reload();
}

/** Forgets the reload once the document fits, so a later visit may reload again. */
export function isolationSettled(): void {
  try {
    if (sessionStorage.getItem(reloadKey) !== null) sessionStorage.removeItem(reloadKey);
  } catch {
    // Nothing to forget.
  }
}
