import { gameVersionSchema, type GameVersion } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { myVersionsKey } from './list-versions';

/** POST /game-versions/done: 'I Finished My Game' (the version becomes Finished for the reviewer). */
export async function finishVersion(id: number): Promise<GameVersion> {
  return gameVersionSchema.parse(await apiRequest('/game-versions/done', { method: 'POST', body: { id } }));
}

export function useFinishVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: finishVersion,
    onSettled: () => queryClient.invalidateQueries({ queryKey: myVersionsKey }),
  });
}
