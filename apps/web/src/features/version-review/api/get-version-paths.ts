import { gamePathSchema, type GamePath } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /game-versions/path/{id}/{gameId}: the play URLs (user version, skeleton, original for admins). */
export async function getVersionPaths(versionId: number, gameId: number): Promise<GamePath> {
  return gamePathSchema.parse(await apiRequest(`/game-versions/path/${versionId}/${gameId}`));
}

export function useVersionPaths(versionId: number | null, gameId: number | null) {
  return useQuery({
    queryKey: ['version-review', 'paths', versionId, gameId],
    queryFn: () => getVersionPaths(versionId ?? 0, gameId ?? 0),
    enabled: versionId !== null && gameId !== null,
    // The play token lives 2 h; a fresh one each visit is simpler than tracking its expiry.
    gcTime: 0,
  });
}
