import { gameFilesRootSchema, limits } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { encodePath } from '../lib/play-file-url';

export const gameFilesRootQueryKey = (gameId: number) => ['games', 'files-root', gameId] as const;

/** GET /games/{id}/files-root: the root of the game's original view on the play origin (admins, any status). */
export async function getGameFilesRoot(gameId: number): Promise<string> {
  return gameFilesRootSchema.parse(await apiRequest(`/games/${gameId}/files-root`)).rootPath;
}

/**
 * The original view's root of a game, for thumbnails on the admin's files screen and games list (both features
 * use it). Its token lasts limits.playTokenHours; the query renews it well before.
 */
export function useGameFilesRoot(gameId: number) {
  const renewMs = (limits.playTokenHours * 60 * 60 * 1000) / 2;
  return useQuery({
    queryKey: gameFilesRootQueryKey(gameId),
    queryFn: () => getGameFilesRoot(gameId),
    staleTime: renewMs,
    refetchInterval: renewMs,
  });
}

/** A file's URL in the original view; `version` (its updatedAt) changes the URL when the file changes. */
export function originalFileUrl(root: string, path: string, version?: string): string {
  return `${root}${encodePath(path)}${version === undefined ? '' : `?t=${encodeURIComponent(version)}`}`;
}
