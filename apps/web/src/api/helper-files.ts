import { helperFilesSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiParse, apiRequest } from '../lib/api-client';
import { uploadMultipart } from '../lib/upload-request';
import { useApiMutation } from './mutation';

export type HelperFiles = z.infer<typeof helperFilesSchema>;
export type HelperFile = HelperFiles['files'][number];

export const helperFileKeys = {
  all: ['helper-files'] as const,
  list: (gameId: number) => [...helperFileKeys.all, 'list', gameId] as const,
};

/** GET /games/{id}/psd-files/: each url carries a short-lived download ticket, so a plain link opens it. */
export const listHelperFiles = (gameId: number) => apiParse(helperFilesSchema, `/games/${gameId}/psd-files/`);

/** POST /games/{id}/psd-files/ (multipart; a file with an existing name replaces it). */
export const uploadHelperFiles = (
  gameId: number,
  files: File[],
  onProgress?: (loaded: number, total: number) => void,
) =>
  uploadMultipart(
    `/games/${gameId}/psd-files/`,
    files.map((file) => ({ fullPath: file.name, filename: file.name, file })),
    { onProgress },
  );

/** DELETE /games/{id}/psd-files/{helperId} */
export const deleteHelperFile = ({ gameId, helperId }: { gameId: number; helperId: number }) =>
  apiRequest(`/games/${gameId}/psd-files/${helperId}`, { method: 'DELETE' });

// The download tickets expire after 15 minutes: fresh ones on each visit (gcTime 0).
export const useHelperFiles = (gameId: number | null) =>
  useQuery({
    queryKey: helperFileKeys.list(gameId ?? 0),
    queryFn: () => listHelperFiles(gameId ?? 0),
    enabled: gameId !== null,
    gcTime: 0,
  });

export const useDeleteHelperFile = () =>
  useApiMutation([...helperFileKeys.all, 'delete'], deleteHelperFile, ({ gameId }) => [
    helperFileKeys.list(gameId),
  ]);
