import { GameStatus, copiesUpdatingText, gameStatusIds, gameStatusName } from '@reskin/contract';

/**
 * The status column (and the files screen's status): the word, plus the reason when the last generation failed,
 * or the progress while a game is Generating (images done / in all, once the job has counted them); a Ready game
 * whose changed files are getting their copies says "Updating copies (12 of 40)".
 */
export function statusText(game: {
  gameStatusTypeId: number;
  statusReason?: string | null;
  generationDone?: number | null;
  generationTotal?: number | null;
  copiesCurrent?: number | undefined;
  copiesTotal?: number | undefined;
}): string {
  const updating = copiesUpdatingText(game);
  if (updating) return updating;
  const word = gameStatusName(game.gameStatusTypeId);
  if (game.gameStatusTypeId === GameStatus.Failed && game.statusReason)
    return `${word}: ${game.statusReason}`;
  if (game.gameStatusTypeId === GameStatus.Generating && game.generationTotal != null) {
    return `${word} ${game.generationDone ?? 0}/${game.generationTotal}`;
  }
  return word;
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
