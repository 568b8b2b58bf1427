/**
 * Whether the app's router is between the start and the end of a navigation, known the moment it starts (a router
 * subscription runs inside router.navigate), before React has rendered anything of it. A list's debounced search
 * reads it when its timer fires: `useNavigation()` is only as new as the last render, and on a busy machine the
 * timer can fire between a click on a row's Play and the render that follows, when writing the search into the URL
 * would cancel that navigation (seen in the isolation browser test under load: the admin stayed on Games).
 */
let inFlight = false;

interface RouterLike {
  subscribe(listener: (state: { navigation: { state: string } }) => void): () => void;
}

/** Follows `router`'s navigations (the app's router, once, when it is made); answers the unsubscribe. */
export function followNavigations(router: RouterLike): () => void {
  return router.subscribe((state) => {
    inFlight = state.navigation.state !== 'idle';
  });
}

export const navigationInFlight = (): boolean => inFlight;
