import { gameFileListSchema, type GameFile } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const gameFilesQueryKey = (gameId: number) => ['games', 'files', gameId] as const;

/** GET /games/{id}/files, sorted by path so folders stay together. */
export async function listGameFiles(gameId: number): Promise<GameFile[]> {
  const files = gameFileListSchema.parse(await apiRequest(`/games/${gameId}/files`));
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

export function useGameFiles(gameId: number) {
  return useQuery({ queryKey: gameFilesQueryKey(gameId), queryFn: () => listGameFiles(gameId) });
}
