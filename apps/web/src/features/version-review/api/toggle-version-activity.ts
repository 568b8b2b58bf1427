import { gameVersionSchema, type GameVersion } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /game-versions/{id}/changeActivity: Enable / Disable. */
export async function toggleVersionActivity(id: number): Promise<GameVersion> {
  return gameVersionSchema.parse(
    await apiRequest(`/game-versions/${id}/changeActivity`, { method: 'DELETE' }),
  );
}

export function useToggleVersionActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleVersionActivity,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['version-review', 'versions'] }),
  });
}
