import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { myVersionsKey } from './list-versions';

/** DELETE /game-versions/{id}: one of the caller's versions, with its files. */
export async function deleteVersion(id: number): Promise<void> {
  await apiRequest(`/game-versions/${id}`, { method: 'DELETE' });
}

export function useDeleteVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVersion,
    onSettled: () => queryClient.invalidateQueries({ queryKey: myVersionsKey }),
  });
}
