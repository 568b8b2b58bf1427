// Free of zod, like roles, limits and legal: the web's route paths (config/paths.ts, on the landing page) import
// it, and a schema module there would put zod into the landing page's script (159.5 KB against its 150 KB budget).

/**
 * The app's play screens: the client routes that frame a game (SPEC §2), each with the game in `?gameId=`.
 * For a game served isolated the app serves these pages cross-origin isolated too (decision 0022); the web
 * app's route paths use these same strings.
 */
export const playScreenPaths = {
  gamePlay: '/games/game-play',
  userGameVersionPlay: '/user-game-list/game-versions/play',
  workbench: '/my-games/versions/workbench',
  myGameVersionPlay: '/my-games/versions/play',
  demo: '/my-games/demo',
} as const;
export const playScreenPathList: readonly string[] = Object.values(playScreenPaths);
