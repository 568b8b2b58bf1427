import { gameSchema, type Game } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /games/{id}: the whole game, for what the list does not carry (the reason a generation failed). */
export async function getGame(id: number): Promise<Game> {
  return gameSchema.parse(await apiRequest(`/games/${id}`));
}

/** `version` (the list's updatedAt) makes a changed game load again. */
export function useGameDetail(id: number, version: string | undefined, enabled: boolean) {
  return useQuery({ queryKey: ['games', 'detail', id, version], queryFn: () => getGame(id), enabled });
}
