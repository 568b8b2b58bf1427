import type { LegalDocument } from '@reskin/contract';

/** Every route path of SPEC §2. */
export const paths = {
  home: '/',
  register: '/register',
  login: '/login',
  logout: '/logout',
  account: '/account',
  myGames: '/my-games',
  myGameVersions: '/my-games/versions',
  myGameVersionAdd: '/my-games/versions/add',
  workbench: '/my-games/versions/workbench',
  myGameVersionPlay: '/my-games/versions/play',
  demo: '/my-games/demo',
  games: '/games',
  gamePlay: '/games/game-play',
  gameFiles: '/games/game-files',
  userGames: '/user-game-list',
  userGameVersions: '/user-game-list/game-versions',
  userGameVersionFiles: '/user-game-list/game-versions/files',
  userGameVersionPlay: '/user-game-list/game-versions/play',
  admin: '/admin',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The open page of a legal document (the Register form links to each): its route is the document's name. */
export const legalPagePath = (document: LegalDocument) => `/${document}`;
