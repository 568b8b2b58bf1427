import { gameFilesRootSchema, gamePathSchema, limits } from '@reskin/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiParse, type RequestOptions } from '../lib/api-client';
import { encodePath } from '../lib/play-file-url';

/**
 * How long a play screen uses play URLs it already has. They carry a capability token of limits.playTokenHours,
 * and the server hands out one link for the first hour of its life, so a URL kept this long still has most of an
 * hour left; kept (or fetched ahead by the versions screen), a play screen sets its frame at the click instead of
 * after a call (decision 0065).
 */
const playPathFreshMs = 5 * 60_000;

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
export const getVersionPath = (versionId: number, gameId: number, options?: RequestOptions) =>
  apiParse(gamePathSchema, `/game-versions/path/${versionId}/${gameId}`, options);

/** GET /games/{id}/files-root: the root of the game's original view on the play origin (admins, any status). */
export const getGameFilesRoot = async (gameId: number) =>
  (await apiParse(gameFilesRootSchema, `/games/${gameId}/files-root`)).rootPath;

export const useGamePath = (gameId: number | null, enabled = true) =>
  useQuery({
    queryKey: playKeys.game(gameId ?? 0),
    queryFn: () => getGamePath(gameId ?? 0),
    enabled: enabled && gameId !== null,
    staleTime: playPathFreshMs,
    gcTime: playPathFreshMs,
  });

const versionPathQuery = (versionId: number, gameId: number, options?: RequestOptions) =>
  queryOptions({
    queryKey: playKeys.version(versionId, gameId),
    queryFn: () => getVersionPath(versionId, gameId, options),
    staleTime: playPathFreshMs,
    gcTime: playPathFreshMs,
  });

export const useVersionPath = (versionId: number | null, gameId: number | null) =>
  useQuery({
    ...versionPathQuery(versionId ?? 0, gameId ?? 0),
    enabled: versionId !== null && gameId !== null,
  });

/**
 * Fetches a version's play URLs ahead of its play screen (nothing while they are kept), in the background: a
 * failure shows no toast (the play screen asks again, and says why).
 */
export const prefetchVersionPath = (queryClient: QueryClient, versionId: number, gameId: number) =>
  queryClient.prefetchQuery(versionPathQuery(versionId, gameId, { background: true }));

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
