import { gameVersionSchema, type GameVersion, type VersionForm } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { myVersionsKey } from './list-versions';

export interface SaveVersionInput {
  form: VersionForm;
  gameId: number;
  userGameId: number;
  /** The version being edited; absent when adding one. */
  versionId?: number;
}

/** POST /game-versions (add) or PATCH /game-versions/{id} (edit): name and description. */
export async function saveVersion({
  form,
  gameId,
  userGameId,
  versionId,
}: SaveVersionInput): Promise<GameVersion> {
  const answer =
    versionId === undefined
      ? await apiRequest('/game-versions', {
          method: 'POST',
          body: { ...form, gameId, userGamesId: userGameId, isLocked: false },
        })
      : await apiRequest(`/game-versions/${versionId}`, { method: 'PATCH', body: form });
  return gameVersionSchema.parse(answer);
}

export function useSaveVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveVersion,
    onSettled: () => queryClient.invalidateQueries({ queryKey: myVersionsKey }),
  });
}
