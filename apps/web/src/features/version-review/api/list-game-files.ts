import { gameFileListSchema, type GameFile } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /games/{id}/files: the game's own files (the originals beside a version's replacements). */
export async function listGameFiles(gameId: number): Promise<GameFile[]> {
  return gameFileListSchema.parse(await apiRequest(`/games/${gameId}/files`));
}

export function useGameFiles(gameId: number | null) {
  return useQuery({
    queryKey: ['version-review', 'game-files', gameId],
    queryFn: () => listGameFiles(gameId ?? 0),
    enabled: gameId !== null,
  });
}
