import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { userGamesQueryKey } from './list-user-games';

/** DELETE /user-games/{id}/changeActivity: Remove Access / Give Access. */
export async function toggleUserGameActivity(id: number): Promise<void> {
  await apiRequest(`/user-games/${id}/changeActivity`, { method: 'DELETE' });
}

export function useToggleUserGameActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleUserGameActivity,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userGamesQueryKey }),
  });
}
