import type { userGameSearchColumns, Where } from '@reskin/contract';

type UserGameColumn = (typeof userGameSearchColumns)[number];

/** What the list's search box matches: the assignee's username or the game's name. */
export const userGameSearchBy = ['username', 'gameName'] as const satisfies readonly UserGameColumn[];

/** The columns the list's headers sort by. */
export const userGameSortColumns = [
  'username',
  'gameName',
  'userGameTypeId',
  'jobPrice',
  'isActive',
  'versionCount',
  'finishedCount',
  'lastFinishedAt',
  'toReviewCount',
  'openNotes',
] as const satisfies readonly UserGameColumn[];
export type UserGameSortColumn = (typeof userGameSortColumns)[number];

/** The "Has finished versions" filter: assignments with at least one Finished version (the review loop). */
export const hasFinishedVersions: Where = { finishedCount: { gt: 0 } };

/** The list's text when the filter is on and no assignment has a finished version. */
export const noFinishedText = 'No user game has a finished version yet.';
