import { gamePathSchema, type GamePath } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /game-versions/path/{id}/{gameId}: orjFile is the caller's version, emtFile the skeleton, wtmFile the
 * watermarked original.
 */
export async function getVersionPaths(versionId: number, gameId: number): Promise<GamePath> {
  return gamePathSchema.parse(await apiRequest(`/game-versions/path/${versionId}/${gameId}`));
}

/** GET /games/{id}/path/: for an assigned user, wtmFile is the watermarked original and emtFile the skeleton. */
export async function getGamePaths(gameId: number): Promise<GamePath> {
  return gamePathSchema.parse(await apiRequest(`/games/${gameId}/path/`));
}

// The play token lives 2 h; a fresh one on each visit is simpler than tracking its expiry (gcTime 0).
export function useVersionPaths(versionId: number | null, gameId: number | null) {
  return useQuery({
    queryKey: ['my-games', 'version-paths', versionId, gameId],
    queryFn: () => getVersionPaths(versionId ?? 0, gameId ?? 0),
    enabled: versionId !== null && gameId !== null,
    gcTime: 0,
  });
}

export function useGamePaths(gameId: number | null) {
  return useQuery({
    queryKey: ['my-games', 'game-paths', gameId],
    queryFn: () => getGamePaths(gameId ?? 0),
    enabled: gameId !== null,
    gcTime: 0,
  });
}
