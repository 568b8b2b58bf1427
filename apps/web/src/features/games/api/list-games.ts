import { GameStatus, gameSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const gamesQueryKey = ['games', 'list'] as const;

/** How often the list reloads while a game is Generating, so its status word turns Ready or Failed. */
export const generatingPollMs = 2000;

/**
 * A game as the search answers it: only the searchable columns, so no statusReason, imagePath or rootPath
 * (SPEC §7: the edit sends imagePath and rootPath empty when missing).
 */
export const gameListItemSchema = gameSchema.partial().required({
  id: true,
  name: true,
  description: true,
  width: true,
  height: true,
  gameStatusTypeId: true,
  isActive: true,
});
export type GameListItem = z.infer<typeof gameListItemSchema>;

/** POST /games/filter, newest first (the server answers at most 100 games per query). */
export async function listGames(): Promise<GameListItem[]> {
  return z
    .array(gameListItemSchema)
    .parse(await apiRequest('/games/filter', { method: 'POST', body: { order: 'id DESC' } }));
}

export const isGenerating = (game: Pick<GameListItem, 'gameStatusTypeId'>) =>
  game.gameStatusTypeId === GameStatus.Generating;

export function useGames() {
  return useQuery({
    queryKey: gamesQueryKey,
    queryFn: listGames,
    refetchInterval: (query) => (query.state.data?.some(isGenerating) ? generatingPollMs : false),
  });
}
