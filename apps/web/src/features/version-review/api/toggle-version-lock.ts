import { gameVersionSchema, type GameVersion } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /game-versions/{id}/changeLock: Lock / UnLock. */
export async function toggleVersionLock(id: number): Promise<GameVersion> {
  return gameVersionSchema.parse(await apiRequest(`/game-versions/${id}/changeLock`, { method: 'DELETE' }));
}

export function useToggleVersionLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleVersionLock,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['version-review', 'versions'] }),
  });
}
