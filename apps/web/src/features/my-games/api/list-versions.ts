import { gameVersionListSchema, type GameVersion } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const myVersionsKey = ['my-games', 'versions'] as const;

/** GET /game-versions/{gameId}/{userGameId}: the versions of one of the caller's user-games. */
export async function listVersions(gameId: number, userGameId: number): Promise<GameVersion[]> {
  return gameVersionListSchema.parse(await apiRequest(`/game-versions/${gameId}/${userGameId}`));
}

export function useVersions(gameId: number | null | undefined, userGameId: number | null) {
  return useQuery({
    queryKey: [...myVersionsKey, gameId, userGameId],
    queryFn: () => listVersions(gameId ?? 0, userGameId ?? 0),
    enabled: !!gameId && userGameId !== null,
  });
}
