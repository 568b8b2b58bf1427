import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { gamesQueryKey } from './list-games';

/** DELETE /games/{id}: the game with all its files. */
export async function deleteGame(id: number): Promise<void> {
  await apiRequest(`/games/${id}`, { method: 'DELETE' });
}

export function useDeleteGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGame,
    onSettled: () => queryClient.invalidateQueries({ queryKey: gamesQueryKey }),
  });
}
