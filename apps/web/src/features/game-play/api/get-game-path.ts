import { gamePathSchema, type GamePath } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const gamePathQueryKey = (id: number) => ['games', 'path', id] as const;

/**
 * GET /games/{id}/path/: play URLs on the play origin with a 2-hour capability token; an admin's wtmFile is
 * the original. The game must be Ready (409 otherwise).
 */
export async function getGamePath(id: number): Promise<GamePath> {
  return gamePathSchema.parse(await apiRequest(`/games/${id}/path/`));
}

export function useGamePath(id: number, enabled: boolean) {
  // Fresh tokens on every visit: a cached URL could outlive its token.
  return useQuery({ queryKey: gamePathQueryKey(id), queryFn: () => getGamePath(id), enabled, gcTime: 0 });
}
