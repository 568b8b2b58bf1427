import {
  gameVersionListSchema,
  gameVersionSchema,
  messages,
  versionFileListSchema,
  versionFileSchema,
  type FilePageQuery,
  type VersionFile,
  type VersionForm,
} from '@reskin/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { apiList, apiParse, apiRequest, type ListParams } from '../lib/api-client';
import { uploadMultipart, type UploadOutcome } from '../lib/upload-request';
import { filePageUrl, useFilePages, type FilePagesData } from './file-pages';
import { useApiMutation } from './mutation';

/** The versions of a user-game, as the admin filters them or as their artist lists them. */
type VersionListParams = ListParams & { userGamesId: number };

export const versionKeys = {
  all: ['versions'] as const,
  lists: () => [...versionKeys.all, 'list'] as const,
  list: (params: VersionListParams) => [...versionKeys.lists(), params] as const,
  mine: (gameId: number, userGameId: number) => [...versionKeys.lists(), 'mine', gameId, userGameId] as const,
  files: (versionId: number) => [...versionKeys.all, 'files', versionId] as const,
};

/** POST /game-versions/filter: a user-game's versions (admin), and how many there are. */
export const filterVersions = (params: VersionListParams) =>
  apiList('/game-versions/filter', { body: params, schema: gameVersionSchema });

/** GET /game-versions/{gameId}/{userGameId}: the versions of one of the caller's user-games. */
export const listMyVersions = (gameId: number, userGameId: number) =>
  apiParse(gameVersionListSchema, `/game-versions/${gameId}/${userGameId}`);

/** GET /game-versions/files/{id}/{gameId}: the files a version replaced, by path: all, or a page (decision 0063). */
export const listVersionFiles = (versionId: number, gameId: number, page: FilePageQuery = {}) =>
  apiParse(versionFileListSchema, filePageUrl(`/game-versions/files/${versionId}/${gameId}`, page));

export interface SaveVersionInput {
  form: VersionForm;
  gameId: number;
  userGameId: number;
  /** The version being edited; absent when adding one. */
  versionId?: number;
}

/** POST /game-versions (add) or PATCH /game-versions/{id} (edit): name and description. */
/** SPEC §8: a failed save says 'There was an error.', with the server's reason under it. */
const saveFailed = () => messages.versionSaveFailed;

export const saveVersion = ({ form, gameId, userGameId, versionId }: SaveVersionInput) =>
  versionId === undefined
    ? apiParse(gameVersionSchema, '/game-versions', {
        method: 'POST',
        body: { ...form, gameId, userGamesId: userGameId, isLocked: false },
        failureMessage: saveFailed,
      })
    : apiParse(gameVersionSchema, `/game-versions/${versionId}`, {
        method: 'PATCH',
        body: form,
        failureMessage: saveFailed,
      });

/** POST /game-versions/done: 'I Finished My Game' (the version becomes Finished for the reviewer). */
export const finishVersion = (id: number) =>
  apiParse(gameVersionSchema, '/game-versions/done', { method: 'POST', body: { id } });

/** DELETE /game-versions/{id}: the version and its files. */
export const deleteVersion = (id: number) => apiRequest(`/game-versions/${id}`, { method: 'DELETE' });

/** DELETE /game-versions/{id}/changeActivity: Enable / Disable. */
export const toggleVersionActivity = (id: number) =>
  apiParse(gameVersionSchema, `/game-versions/${id}/changeActivity`, { method: 'DELETE' });

/** DELETE /game-versions/{id}/changeLock: Lock / UnLock. */
export const toggleVersionLock = (id: number) =>
  apiParse(gameVersionSchema, `/game-versions/${id}/changeLock`, { method: 'DELETE' });

/** DELETE /game-versions/{versionId}/files/{fileId}: undoes a replacement; the version serves the original again. */
export const restoreVersionFile = ({ versionId, fileId }: { versionId: number; fileId: number }) =>
  apiRequest(`/game-versions/${versionId}/files/${fileId}`, { method: 'DELETE' });

/** GET /game-versions/{id}/zip-url: the files.zip URL with a 15-minute ticket, for a new window. */
export const getZipUrl = async (versionId: number) =>
  (await apiParse(z.object({ url: z.string() }), `/game-versions/${versionId}/zip-url`)).url;

/**
 * POST /game-version/upload/{versionId}/{fileId}: replaces one game file inside a version (multipart file and
 * fullPath). Never rejects: the drop area shows the outcome.
 */
export const uploadVersionFile = (
  versionId: number,
  fileId: number,
  fullPath: string,
  file: File,
  onProgress?: (loaded: number, total: number) => void,
) =>
  uploadMultipart(`/game-version/upload/${versionId}/${fileId}`, [{ fullPath, filename: file.name, file }], {
    onProgress,
  });

/**
 * POST /game-version/upload-frame/{versionId}/{fileId}: replaces one frame of a sprite sheet inside a version
 * (multipart: the `frame` field first, then the file). The answer is the version's composed sheet with
 * its `notice`. Never rejects: the frame's drop area shows the outcome.
 */
export const uploadVersionFrame = (
  versionId: number,
  fileId: number,
  frame: string,
  file: File,
  onProgress?: (loaded: number, total: number) => void,
) =>
  uploadMultipart(
    `/game-version/upload-frame/${versionId}/${fileId}`,
    [{ fullPath: file.name, filename: file.name, file }],
    {
      onProgress,
      fields: { frame },
    },
  );

/** DELETE /game-versions/{versionId}/files/{fileId}/frames/{frameName}: the frame is the original again. */
export const restoreVersionFrame = ({
  versionId,
  fileId,
  frame,
}: {
  versionId: number;
  fileId: number;
  frame: string;
}) =>
  apiRequest(`/game-versions/${versionId}/files/${fileId}/frames/${encodeURIComponent(frame)}`, {
    method: 'DELETE',
  });

/** The admin's list of a user-game's versions. */
export const useVersionList = (userGameId: number | null, params: ListParams = {}) =>
  useQuery({
    queryKey: versionKeys.list({ userGamesId: userGameId ?? 0, ...params }),
    queryFn: () => filterVersions({ userGamesId: userGameId ?? 0, ...params }),
    enabled: userGameId !== null,
    placeholderData: keepPreviousData,
  });

export const useMyVersions = (gameId: number | null | undefined, userGameId: number | null) =>
  useQuery({
    queryKey: versionKeys.mine(gameId ?? 0, userGameId ?? 0),
    queryFn: () => listMyVersions(gameId ?? 0, userGameId ?? 0),
    enabled: !!gameId && userGameId !== null,
  });

/** A version's files: the first page, then the rest once `rest` (useFilePages, decision 0063). */
export const useVersionFiles = (
  versionId: number | null,
  gameId: number | null,
  { rest }: { rest: boolean },
) =>
  useFilePages({
    queryKey: versionKeys.files(versionId ?? 0),
    fetchPage: (page) => listVersionFiles(versionId ?? 0, gameId ?? 0, page),
    enabled: versionId !== null && gameId !== null,
    rest,
  });

const reloadVersions = () => [versionKeys.lists()];

export const useSaveVersion = () => useApiMutation([...versionKeys.all, 'save'], saveVersion, reloadVersions);
export const useFinishVersion = () =>
  useApiMutation([...versionKeys.all, 'finish'], finishVersion, reloadVersions);
export const useDeleteVersion = () =>
  useApiMutation([...versionKeys.all, 'delete'], deleteVersion, reloadVersions);
export const useToggleVersionActivity = () =>
  useApiMutation([...versionKeys.all, 'activity'], toggleVersionActivity, reloadVersions);
export const useToggleVersionLock = () =>
  useApiMutation([...versionKeys.all, 'lock'], toggleVersionLock, reloadVersions);
// The version too: a lock set by the reviewer meanwhile (the server's 423) then hides the action.
export const useRestoreVersionFile = () =>
  useApiMutation([...versionKeys.all, 'restore-file'], restoreVersionFile, ({ versionId }) => [
    versionKeys.files(versionId),
    versionKeys.lists(),
  ]);
export const useRestoreVersionFrame = () =>
  useApiMutation([...versionKeys.all, 'restore-frame'], restoreVersionFrame, ({ versionId }) => [
    versionKeys.files(versionId),
    versionKeys.lists(),
  ]);
export const useZipUrl = () => useApiMutation([...versionKeys.all, 'zip-url'], getZipUrl);

/**
 * Reloads a version's files and the versions lists after any change of its files (an upload, a frame, a restore):
 * the version too, so a lock set by the reviewer meanwhile (the server's 423) disables the drop areas.
 */
export function useRefreshVersionFiles(versionId: number): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: versionKeys.files(versionId) }),
        queryClient.invalidateQueries({ queryKey: versionKeys.lists() }),
      ]),
    [queryClient, versionId],
  );
}

/**
 * The version's cached pages with a file as an upload saved it: in place where the list has it, else at the end of a
 * whole list (where the pages stop does not move: filePage). Undefined for a new file while the rest of the list has
 * not come: the rest may hold it, so the list is asked again instead.
 */
function withSavedFile(
  data: FilePagesData<VersionFile>,
  saved: VersionFile,
): FilePagesData<VersionFile> | undefined {
  const known = data.pages.some((page) => page.files.some((file) => file.fileId === saved.fileId));
  const last = data.pages.at(-1);
  if (!known && last?.after !== undefined) return undefined;
  const pages = data.pages.map((page) => {
    if (known)
      return {
        ...page,
        files: page.files.map((file) => (file.fileId === saved.fileId ? { ...file, ...saved } : file)),
      };
    return page === last ? { ...page, files: [...page.files, saved] } : page;
  });
  return { ...data, pages };
}

/**
 * Takes the answer of an upload of a version's file (the single upload, a frame): the file as saved goes into the
 * version's file list as it is (decision 0055), and only what the answer cannot tell is fetched again: a frame's
 * answer carries no preview (the list's sheet preview is fetched), the versions lists are marked stale (a version's
 * time, notes an upload resolved: fetched when next shown). A refusal reloads both, as a lock set by the reviewer
 * meanwhile (the server's 423) must disable the drop areas.
 */
export function useUploadAnswer(versionId: number): (outcome: UploadOutcome) => Promise<unknown> {
  const queryClient = useQueryClient();
  const refresh = useRefreshVersionFiles(versionId);
  return useCallback(
    async (outcome: UploadOutcome) => {
      const saved = outcome.ok ? versionFileSchema.safeParse(outcome.body).data : undefined;
      if (!saved) return refresh();
      const cached = queryClient.getQueryData<FilePagesData<VersionFile>>(versionKeys.files(versionId));
      const updated = cached && withSavedFile(cached, saved);
      if (cached && !updated) return refresh();
      if (updated) queryClient.setQueryData(versionKeys.files(versionId), updated);
      void queryClient.invalidateQueries({ queryKey: versionKeys.lists(), refetchType: 'none' });
      // A replacement resolves the notes on its file: they live under the file list's key (reviewKeys.notes).
      void queryClient.invalidateQueries({ queryKey: [...versionKeys.files(versionId), 'notes'] });
      if (saved.preview === undefined)
        return queryClient.invalidateQueries({ queryKey: versionKeys.files(versionId) });
      return undefined;
    },
    [queryClient, refresh, versionId],
  );
}
