import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateGameFiles } from './file-changed';
import type { GameFileRef } from './set-index-file';

/** DELETE /games/{id}/files/{fileId}/ */
export async function deleteGameFile({ gameId, fileId }: GameFileRef): Promise<void> {
  await apiRequest(`/games/${gameId}/files/${fileId}/`, { method: 'DELETE' });
}

export function useDeleteGameFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGameFile,
    onSettled: (_result, _error, { gameId }) => invalidateGameFiles(queryClient, gameId),
  });
}
