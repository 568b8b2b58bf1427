import { GameStatus, gameStatusIds, gameStatusName } from '@reskin/contract';

/** The status column: the word, plus the reason when the last generation failed. */
export function statusText(game: { gameStatusTypeId: number; statusReason?: string | null }): string {
  const word = gameStatusName(game.gameStatusTypeId);
  return game.gameStatusTypeId === GameStatus.Failed && game.statusReason
    ? `${word}: ${game.statusReason}`
    : word;
}

/**
 * The statuses the inline edit offers. Only Draft can be chosen by hand (Ready, Generating and Failed come
 * from 'Gen.'), so the others are listed but disabled unless the game already has them.
 */
export function statusOptions(current: number): { id: number; name: string; disabled: boolean }[] {
  return gameStatusIds.map((id) => ({
    id,
    name: gameStatusName(id),
    disabled: id !== current && id !== GameStatus.Draft,
  }));
}
