import { gameVersionListSchema, type GameVersion } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const versionsQueryKey = (userGameId: number | null) =>
  ['version-review', 'versions', userGameId] as const;

/** POST /game-versions/filter: a user-game's versions. */
export async function listVersions(userGamesId: number): Promise<GameVersion[]> {
  return gameVersionListSchema.parse(
    await apiRequest('/game-versions/filter', { method: 'POST', body: { userGamesId } }),
  );
}

export function useVersions(userGameId: number | null) {
  return useQuery({
    queryKey: versionsQueryKey(userGameId),
    queryFn: () => listVersions(userGameId ?? 0),
    enabled: userGameId !== null,
  });
}
