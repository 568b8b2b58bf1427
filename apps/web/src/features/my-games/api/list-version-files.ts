import { versionFileListSchema, type VersionFile } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const versionFilesKey = (versionId: number | null) =>
  ['my-games', 'version-files', versionId] as const;

/** GET /game-versions/files/{id}/{gameId}: the files the caller has replaced in a version. */
export async function listVersionFiles(versionId: number, gameId: number): Promise<VersionFile[]> {
  return versionFileListSchema.parse(await apiRequest(`/game-versions/files/${versionId}/${gameId}`));
}

export function useVersionFiles(versionId: number | null, gameId: number | null) {
  return useQuery({
    queryKey: versionFilesKey(versionId),
    queryFn: () => listVersionFiles(versionId ?? 0, gameId ?? 0),
    enabled: versionId !== null && gameId !== null,
  });
}
