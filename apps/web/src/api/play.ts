import { gameFilesRootSchema, gamePathSchema, limits } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse } from '../lib/api-client';
import { encodePath } from '../lib/play-file-url';

/** Play URLs carry a capability token of limits.playTokenHours: fetched fresh on each visit (gcTime 0). */
export const playKeys = {
  all: ['play'] as const,
  game: (gameId: number) => [...playKeys.all, 'game', gameId] as const,
  version: (versionId: number, gameId: number) => [...playKeys.all, 'version', versionId, gameId] as const,
  filesRoot: (gameId: number) => [...playKeys.all, 'files-root', gameId] as const,
};

/**
 * GET /games/{id}/path/: play URLs on the play origin; an admin's wtmFile is the original, an assigned
 * user's the watermarked original (emtFile the skeleton). The game must be Ready (409 otherwise).
 */
export const getGamePath = (gameId: number) => apiParse(gamePathSchema, `/games/${gameId}/path/`);

/** GET /game-versions/path/{id}/{gameId}: orjFile is the version, emtFile the skeleton, wtmFile the original. */
export const getVersionPath = (versionId: number, gameId: number) =>
  apiParse(gamePathSchema, `/game-versions/path/${versionId}/${gameId}`);

/** GET /games/{id}/files-root: the root of the game's original view on the play origin (admins, any status). */
export const getGameFilesRoot = async (gameId: number) =>
  (await apiParse(gameFilesRootSchema, `/games/${gameId}/files-root`)).rootPath;

export const useGamePath = (gameId: number | null, enabled = true) =>
  useQuery({
    queryKey: playKeys.game(gameId ?? 0),
    queryFn: () => getGamePath(gameId ?? 0),
    enabled: enabled && gameId !== null,
    gcTime: 0,
  });

export const useVersionPath = (versionId: number | null, gameId: number | null) =>
  useQuery({
    queryKey: playKeys.version(versionId ?? 0, gameId ?? 0),
    queryFn: () => getVersionPath(versionId ?? 0, gameId ?? 0),
    enabled: versionId !== null && gameId !== null,
    gcTime: 0,
  });

/**
 * The original view's root of a game, for thumbnails on the admin's files screen and games list when the answer
 * carries no thumbnail URL (`enabled` false: no call). Its token lasts limits.playTokenHours; the query renews it
 * well before.
 */
export function useGameFilesRoot(gameId: number, enabled = true) {
  const renewMs = (limits.playTokenHours * 60 * 60 * 1000) / 2;
  return useQuery({
    queryKey: playKeys.filesRoot(gameId),
    queryFn: () => getGameFilesRoot(gameId),
    enabled,
    staleTime: renewMs,
    refetchInterval: renewMs,
  });
}

/** A file's URL in the original view; `version` (its updatedAt) changes the URL when the file changes. */
export const originalFileUrl = (root: string, path: string, version?: string) =>
  `${root}${encodePath(path)}${version === undefined ? '' : `?t=${encodeURIComponent(version)}`}`;
