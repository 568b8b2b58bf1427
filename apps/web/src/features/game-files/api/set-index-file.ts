import { gameFileSchema, type GameFile } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateGameFiles } from './file-changed';

export interface GameFileRef {
  gameId: number;
  fileId: number;
}

/** PATCH /games/{id}/files/{fileId}/index: the start file; the server clears the flag on the others. */
export async function setIndexFile({ gameId, fileId }: GameFileRef): Promise<GameFile> {
  return gameFileSchema.parse(
    await apiRequest(`/games/${gameId}/files/${fileId}/index`, { method: 'PATCH' }),
  );
}

export function useSetIndexFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setIndexFile,
    onSettled: (_file, _error, { gameId }) => invalidateGameFiles(queryClient, gameId),
  });
}
