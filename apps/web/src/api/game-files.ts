import {
  escapeLike,
  fileUsageListSchema,
  gameFileListSchema,
  gameFileSchema,
  limits,
  type FilePageQuery,
} from '@reskin/contract';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiList, apiParse, apiRequest, type ListParams, type RequestOptions } from '../lib/api-client';
import { uploadMultipart, type UploadPart } from '../lib/upload-request';
import { gameKeys } from './games';
import { filePageUrl, useFilePages } from './file-pages';
import { useApiMutation } from './mutation';

export const gameFileKeys = {
  all: ['game-files'] as const,
  list: (gameId: number) => [...gameFileKeys.all, 'list', gameId] as const,
  page: (gameId: number, params: ListParams) => [...gameFileKeys.list(gameId), params] as const,
  usage: (gameId: number) => [...gameFileKeys.all, 'usage', gameId] as const,
};

export interface GameFileRef {
  gameId: number;
  fileId: number;
}

/** What a change to a game's files makes stale: the list, and the game (any change makes it a Draft again). */
const fileChanged = (gameId: number) => [gameFileKeys.list(gameId), gameKeys.detail(gameId)];

export const invalidateGameFiles = (queryClient: QueryClient, gameId: number) =>
  Promise.all(fileChanged(gameId).map((queryKey) => queryClient.invalidateQueries({ queryKey })));

/**
 * GET /games/{id}/files: a game's files by path (an admin's game, or one assigned to the caller): every file, or a page
 * (decision 0063).
 */
export const listGameFiles = (gameId: number, page: FilePageQuery = {}, options?: RequestOptions) =>
  apiParse(gameFileListSchema, filePageUrl(`/games/${gameId}/files`, page), options);

/** POST /games/{id}/files/filter: a page of a game's files matching a search query, and how many match. */
export const filterGameFiles = (gameId: number, params: ListParams) =>
  apiList(`/games/${gameId}/files/filter`, { body: params, schema: gameFileSchema });

/**
 * Whether the game has a file under `folder/` at its top (decision 0052: an upload's shared top folder is then kept,
 * as the zip route keeps it). `like` ignores case, so the answer's paths are compared exactly here, as the server does.
 */
export async function gameHasTopFolder(gameId: number, folder: string): Promise<boolean> {
  const prefix = `${folder}/`;
  const { items } = await filterGameFiles(gameId, {
    where: { path: { like: `${escapeLike(prefix)}%` } },
    limit: limits.filterLimitMax,
  });
  return items.some((file) => file.path.startsWith(prefix));
}

/** PATCH /games/{id}/files/{fileId}/index: the start file; the server clears the flag on the others. */
export const setIndexFile = ({ gameId, fileId }: GameFileRef) =>
  apiParse(gameFileSchema, `/games/${gameId}/files/${fileId}/index`, { method: 'PATCH' });

/** PATCH /games/{id}/files/{fileId}/splash: the game's card image. */
export const setSplashFile = ({ gameId, fileId }: GameFileRef) =>
  apiParse(gameFileSchema, `/games/${gameId}/files/${fileId}/splash`, { method: 'PATCH' });

/** DELETE /games/{id}/files/{fileId}/ */
export const deleteGameFile = ({ gameId, fileId }: GameFileRef) =>
  apiRequest(`/games/${gameId}/files/${fileId}/`, { method: 'DELETE' });

export interface GameFileUpload {
  gameId: number;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * POST /game/upload/{gameId} with some files, each under its path inside the game (an existing path replaces that
 * file and keeps its fileId); all or nothing. The screen sends a game in batches within limits.uploadBatch.
 */
export const uploadGameFiles = ({
  gameId,
  parts,
  onProgress,
  signal,
}: Omit<GameFileUpload, 'file'> & { parts: UploadPart[] }) =>
  uploadMultipart(`/game/upload/${gameId}`, parts, { onProgress, signal });

/** Whether a chosen file is a zip of a game folder, to be unpacked on the server. */
export const isZipFile = (file: File) => /\.zip$/i.test(file.name);

/**
 * POST /game/upload-zip/{gameId}: the game folder as one .zip, unpacked on the server with the rules of a folder
 * upload, all or nothing. The answer is one result per unpacked file; a refusal's details name each file.
 */
export const uploadGameZip = ({ gameId, file, onProgress, signal }: GameFileUpload) =>
  uploadMultipart(`/game/upload-zip/${gameId}`, [{ fullPath: file.name, filename: file.name, file }], {
    onProgress,
    signal,
  });

/** How a screen reads a list of a game's files (decision 0063). */
export interface FileListOptions {
  /** A refusal shows no toast (the workbench asks with a link's game id before it knows the game is the artist's). */
  quiet?: boolean;
  /** Ask for the files after the first page now: once the screen's first view is shown (useFirstScreenShown). */
  rest: boolean;
}

/** A game's files: the first page, then the rest once `rest` (useFilePages). */
export const useGameFiles = (gameId: number | null, { quiet = false, rest }: FileListOptions) =>
  useFilePages({
    queryKey: gameFileKeys.list(gameId ?? 0),
    fetchPage: (page) => listGameFiles(gameId ?? 0, page, { background: quiet }),
    enabled: gameId !== null,
    rest,
  });

/** The admin's files table: a page of the files, by path unless another order is asked. */
export const useGameFilesPage = (gameId: number, params: ListParams) =>
  useQuery({
    queryKey: gameFileKeys.page(gameId, params),
    queryFn: () => filterGameFiles(gameId, { order: 'path ASC', ...params }),
    placeholderData: keepPreviousData,
  });

/** The game's index (start) file, or null when none is marked: what switching the index names. */
export const useIndexFile = (gameId: number) =>
  useQuery({
    queryKey: [...gameFileKeys.list(gameId), 'index'],
    queryFn: async () =>
      (await filterGameFiles(gameId, { where: { isStartFile: true }, limit: 1 })).items[0] ?? null,
  });

const changed = ({ gameId }: GameFileRef) => fileChanged(gameId);

export const useSetIndexFile = () => useApiMutation([...gameFileKeys.all, 'index'], setIndexFile, changed);
export const useSetSplashFile = () => useApiMutation([...gameFileKeys.all, 'splash'], setSplashFile, changed);
export const useDeleteGameFile = () =>
  useApiMutation([...gameFileKeys.all, 'delete'], deleteGameFile, changed);

/** GET /games/{id}/usage: which of a game's files plays load, by path; every file (0 loads when never), or a page. */
export const listFileUsage = (gameId: number, page: FilePageQuery = {}, options?: RequestOptions) =>
  apiParse(fileUsageListSchema, filePageUrl(`/games/${gameId}/usage`, page), options);

/**
 * The usage record of a game's files, the first page and then the rest (useFilePages); read afresh whenever a screen
 * showing it opens (plays add to it), revalidated by the browser.
 */
export const useFileUsage = (gameId: number | null, { quiet = false, rest }: FileListOptions) =>
  useFilePages({
    queryKey: gameFileKeys.usage(gameId ?? 0),
    fetchPage: (page) => listFileUsage(gameId ?? 0, page, { background: quiet }),
    enabled: gameId !== null,
    rest,
  });
