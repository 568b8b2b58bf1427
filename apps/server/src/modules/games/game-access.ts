import { can, type User } from '@reskin/contract';
import type { GamesRepository } from './games.repository';

/**
 * Who may see a game, its files, helper files and play links (SPEC §1, DESIGN.md "Play"): an administrator any
 * game, anyone else a game actively assigned to them. Whether the game exists is the caller's question (a 404
 * either way). The one definition the games, helper files, play paths and play access ask.
 */
export async function maySeeGame(
  games: Pick<GamesRepository, 'hasActiveAssignment'>,
  user: Pick<User, 'id' | 'roleTypeId'>,
  gameId: number,
): Promise<boolean> {
  return can(user.roleTypeId, 'games.seeAll') || games.hasActiveAssignment(user.id, gameId);
}
