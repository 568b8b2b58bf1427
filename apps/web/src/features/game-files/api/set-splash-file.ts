import { gameFileSchema, type GameFile } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateGameFiles } from './file-changed';
import type { GameFileRef } from './set-index-file';

/** PATCH /games/{id}/files/{fileId}/splash: the game's card image. */
export async function setSplashFile({ gameId, fileId }: GameFileRef): Promise<GameFile> {
  return gameFileSchema.parse(
    await apiRequest(`/games/${gameId}/files/${fileId}/splash`, { method: 'PATCH' }),
  );
}

export function useSetSplashFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSplashFile,
    onSettled: (_file, _error, { gameId }) => invalidateGameFiles(queryClient, gameId),
  });
}
