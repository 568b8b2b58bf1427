import { userGameSchema, type UpdateUserGameBody, type UserGame } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { userGamesQueryKey } from './list-user-games';

export interface UpdateUserGameInput {
  id: number;
  body: UpdateUserGameBody;
}

/** PUT /user-games/{id}: job type and budget. */
export async function updateUserGame({ id, body }: UpdateUserGameInput): Promise<UserGame> {
  return userGameSchema.parse(await apiRequest(`/user-games/${id}`, { method: 'PUT', body }));
}

export function useUpdateUserGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserGame,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userGamesQueryKey }),
  });
}
