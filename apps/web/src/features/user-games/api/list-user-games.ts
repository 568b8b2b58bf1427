import { userGameSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const userGamesQueryKey = ['user-games', 'list'] as const;

/** A row of the list: the assignment with its user and game (GET /user-games includes both). */
export const userGameRowSchema = userGameSchema.pick({
  id: true,
  userId: true,
  gameId: true,
  userGameTypeId: true,
  jobPrice: true,
  isActive: true,
  user: true,
  game: true,
});
export type UserGameRow = z.infer<typeof userGameRowSchema>;

/** GET /user-games: every assignment, newest first. */
export async function listUserGames(): Promise<UserGameRow[]> {
  return z.array(userGameRowSchema).parse(await apiRequest('/user-games'));
}

export function useUserGames() {
  return useQuery({ queryKey: userGamesQueryKey, queryFn: listUserGames });
}
