import { userGameSchema, type CreateUserGameBody, type UserGame } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { userGamesQueryKey } from './list-user-games';

/** POST /user-games: assign a game to a user. */
export async function createUserGame(body: CreateUserGameBody): Promise<UserGame> {
  return userGameSchema.parse(await apiRequest('/user-games', { method: 'POST', body }));
}

export function useCreateUserGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUserGame,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userGamesQueryKey }),
  });
}
