import { gameFileListSchema, type GameFile } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /games/{id}/files: every file of a game assigned to the caller (the files a version can replace). */
export async function listGameFiles(gameId: number): Promise<GameFile[]> {
  return gameFileListSchema.parse(await apiRequest(`/games/${gameId}/files`));
}

export function useGameFiles(gameId: number | null) {
  return useQuery({
    queryKey: ['my-games', 'game-files', gameId],
    queryFn: () => listGameFiles(gameId ?? 0),
    enabled: gameId !== null,
  });
}
