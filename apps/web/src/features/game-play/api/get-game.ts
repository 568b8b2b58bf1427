import { gameSchema, type Game } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const playGameQueryKey = (id: number) => ['games', 'detail', id] as const;

/** GET /games/{id}: the name and the size of the frame. */
export async function getGame(id: number): Promise<Game> {
  return gameSchema.parse(await apiRequest(`/games/${id}`));
}

export function useGame(id: number) {
  return useQuery({ queryKey: playGameQueryKey(id), queryFn: () => getGame(id) });
}
