import { fileHistorySchema, versionFileSchema, versionStorageSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse } from '../lib/api-client';
import { useApiMutation } from './mutation';
import { versionKeys } from './versions';

/** The history of a version's files (decision 0034) and a version's storage use. */
export const historyKeys = {
  all: ['history'] as const,
  versionFiles: (versionId: number) => [...historyKeys.all, versionId] as const,
  file: (versionId: number, fileId: number) => [...historyKeys.versionFiles(versionId), fileId] as const,
  storage: (versionId: number) => [...historyKeys.all, 'storage', versionId] as const,
};

/** GET /game-versions/{versionId}/files/{fileId}/history: newest first, each entry with a ticketed URL to view. */
export const getFileHistory = (versionId: number, fileId: number) =>
  apiParse(fileHistorySchema, `/game-versions/${versionId}/files/${fileId}/history`);

/** POST .../history/{entryId}/restore: the entry becomes the version's file again (and a new entry). */
export const restoreHistoryEntry = ({
  versionId,
  fileId,
  entryId,
}: {
  versionId: number;
  fileId: number;
  entryId: number;
}) =>
  apiParse(versionFileSchema, `/game-versions/${versionId}/files/${fileId}/history/${entryId}/restore`, {
    method: 'POST',
  });

/** GET /game-versions/{id}/storage (reviewers): the bytes the version keeps, current files and history. */
export const getVersionStorage = (versionId: number) =>
  apiParse(versionStorageSchema, `/game-versions/${versionId}/storage`);

/** A file's history while `fileId` is set (the History dialog is open). */
export const useFileHistory = (versionId: number, fileId: number | null) =>
  useQuery({
    queryKey: historyKeys.file(versionId, fileId ?? 0),
    queryFn: () => getFileHistory(versionId, fileId ?? 0),
    enabled: fileId !== null,
  });

export const useVersionStorage = (versionId: number | null) =>
  useQuery({
    queryKey: historyKeys.storage(versionId ?? 0),
    queryFn: () => getVersionStorage(versionId ?? 0),
    enabled: versionId !== null,
  });

/** Reloads the file's history, the version's files and storage use, and the versions lists. */
export const useRestoreHistoryEntry = () =>
  useApiMutation([...historyKeys.all, 'restore'], restoreHistoryEntry, ({ versionId }) => [
    historyKeys.versionFiles(versionId),
    historyKeys.storage(versionId),
    versionKeys.files(versionId),
    versionKeys.lists(),
  ]);
