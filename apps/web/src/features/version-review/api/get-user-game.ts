import { userGameSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

const headerSchema = userGameSchema.pick({ id: true, userId: true, gameId: true, user: true, game: true });
export type UserGameHeader = z.infer<typeof headerSchema>;

/** POST /user-games/filter by id, with its user and game: the header of the versions screen. */
export async function getUserGame(id: number): Promise<UserGameHeader | null> {
  const body = { where: { id }, include: ['user', 'game'], limit: 1 };
  const rows = z.array(headerSchema).parse(await apiRequest('/user-games/filter', { method: 'POST', body }));
  return rows[0] ?? null;
}

export function useUserGame(id: number | null) {
  return useQuery({
    queryKey: ['version-review', 'user-game', id],
    queryFn: () => getUserGame(id ?? 0),
    enabled: id !== null,
  });
}
