import { can } from './permissions';
import { GameStatus } from './roles';

/**
 * A game that is not Ready yet (a new game, or one an admin is generating), in the words of who reads it
 * (issue 25): artists are never told to generate; admins, who can press Gen., are.
 */
export const gameReadinessMessages = {
  /** My Games' card of a game that is not Ready. */
  preparing: 'This game is being prepared',
  /** What an artist reads where the game would play or show its files. */
  preparingDetail: 'This game is being prepared: you can play it and see its files once it is ready.',
  /** What an administrator reads: they can make it Ready. */
  notReadyAdmin: 'The game is not ready to play: generate its files first.',
} as const;

/** Whether a game can be played: only a Ready game has its play copies (SPEC §4: Play only when status is 2). */
export function isGameReady(game: { gameStatusTypeId: number }): boolean {
  return game.gameStatusTypeId === GameStatus.Ready;
}

/** The not-ready message for a role: the admin wording for those who manage games, the artist's for everyone else. */
export function gameNotReadyMessage(roleTypeId: number): string {
  return can(roleTypeId, 'games.manage') ? gameReadinessMessages.notReadyAdmin : gameReadinessMessages.preparingDetail;
}
