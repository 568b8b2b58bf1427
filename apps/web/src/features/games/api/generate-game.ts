import { gameSchema, type Game } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { gamesQueryKey, type GameListItem } from './list-games';

/** GET /games/{id}/generate ('Gen.'): answers at once with the game, now Generating. */
export async function generateGame(id: number): Promise<Game> {
  return gameSchema.parse(await apiRequest(`/games/${id}/generate`));
}

export function useGenerateGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateGame,
    // Show the new status at once; the list itself reloads 2 s later (SPEC §2) and while anything generates.
    onSuccess: (game) =>
      queryClient.setQueryData<GameListItem[]>(gamesQueryKey, (games) =>
        games?.map((existing) => (existing.id === game.id ? game : existing)),
      ),
  });
}
