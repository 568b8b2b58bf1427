import { gameSchema, type Game } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /games/{id}: for the play frame's size. */
export async function getGame(id: number): Promise<Game> {
  return gameSchema.parse(await apiRequest(`/games/${id}`));
}

export function useGame(id: number | null) {
  return useQuery({
    queryKey: ['version-review', 'game', id],
    queryFn: () => getGame(id ?? 0),
    enabled: id !== null,
  });
}
