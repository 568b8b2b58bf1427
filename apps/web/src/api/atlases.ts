import { gameAtlasesSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse } from '../lib/api-client';

export const atlasKeys = {
  all: ['atlases'] as const,
  game: (gameId: number) => [...atlasKeys.all, gameId] as const,
};

/** GET /games/{gameId}/atlases: the game's recognised sprite sheets with their frames, and the descriptors that failed (issue 26). */
export const getGameAtlases = (gameId: number) => apiParse(gameAtlasesSchema, `/games/${gameId}/atlases`);

export const useGameAtlases = (gameId: number | null) =>
  useQuery({
    queryKey: atlasKeys.game(gameId ?? 0),
    queryFn: () => getGameAtlases(gameId ?? 0),
    enabled: gameId !== null,
  });
