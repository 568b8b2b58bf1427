import { playScreenPaths, type LegalDocument } from '@reskin/contract';

/** Every route path of SPEC §2 (the play screens' from the contract: the server serves them isolated for an isolated game). */
export const paths = {
  home: '/',
  register: '/register',
  login: '/login',
  logout: '/logout',
  /** Mail: the forgot-password form, and the pages the mailed links open. */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  account: '/account',
  myGames: '/my-games',
  myGameVersions: '/my-games/versions',
  myGameVersionAdd: '/my-games/versions/add',
  workbench: playScreenPaths.workbench,
  myGameVersionPlay: playScreenPaths.myGameVersionPlay,
  demo: playScreenPaths.demo,
  games: '/games',
  gamePlay: playScreenPaths.gamePlay,
  gameFiles: '/games/game-files',
  userGames: '/user-game-list',
  userGameVersions: '/user-game-list/game-versions',
  userGameVersionFiles: '/user-game-list/game-versions/files',
  userGameVersionPlay: playScreenPaths.userGameVersionPlay,
  /** The reviewers' "To review" list: finished versions without a verdict since their last finish. */
  toReview: '/to-review',
  admin: '/admin',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The open page of a legal document (the Register form links to each): its route is the document's name. */
export const legalPagePath = (document: LegalDocument) => `/${document}`;
