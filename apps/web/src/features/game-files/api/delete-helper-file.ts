import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { helperFilesQueryKey } from './list-helper-files';

export interface HelperFileRef {
  gameId: number;
  helperId: number;
}

/** DELETE /games/{id}/psd-files/{helperId} */
export async function deleteHelperFile({ gameId, helperId }: HelperFileRef): Promise<void> {
  await apiRequest(`/games/${gameId}/psd-files/${helperId}`, { method: 'DELETE' });
}

export function useDeleteHelperFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHelperFile,
    onSettled: (_result, _error, { gameId }) =>
      queryClient.invalidateQueries({ queryKey: helperFilesQueryKey(gameId) }),
  });
}
