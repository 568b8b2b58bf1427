import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { userGamesQueryKey } from './list-user-games';

/** DELETE /user-games/{id}: the assignment and its versions. */
export async function deleteUserGame(id: number): Promise<void> {
  await apiRequest(`/user-games/${id}`, { method: 'DELETE' });
}

export function useDeleteUserGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUserGame,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userGamesQueryKey }),
  });
}
