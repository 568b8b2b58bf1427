import { gameSchema, type CreateGameBody, type Game } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { gamesQueryKey } from './list-games';

/** POST /games: a new Draft game without files. */
export async function createGame(body: CreateGameBody): Promise<Game> {
  return gameSchema.parse(await apiRequest('/games', { method: 'POST', body }));
}

export function useCreateGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGame,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gamesQueryKey }),
  });
}
