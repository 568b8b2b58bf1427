import { atlasSchema, gameAtlasesSchema, type AtlasGrid } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse, apiRequest } from '../lib/api-client';
import { gameFileKeys } from './game-files';
import { useApiMutation } from './mutation';

/** Under the game's files' key: whatever changes the files (an upload, a delete) finds the sheets again. */
export const atlasKeys = {
  game: (gameId: number) => [...gameFileKeys.list(gameId), 'atlases'] as const,
};

/** GET /games/{id}/atlases: the game's sprite sheets with their frames, and the descriptors that failed, with why. */
export const getGameAtlases = (gameId: number) => apiParse(gameAtlasesSchema, `/games/${gameId}/atlases`);

/** A game's sprite sheets (admins, and the game's assigned artists). */
export const useGameAtlases = (gameId: number | null) =>
  useQuery({
    queryKey: atlasKeys.game(gameId ?? 0),
    queryFn: () => getGameAtlases(gameId ?? 0),
    enabled: gameId !== null,
  });

export interface GridInput {
  gameId: number;
  fileId: number;
  grid: AtlasGrid;
}

/** PUT /games/{id}/files/{fileId}/grid: declares (or changes) an image's uniform grid; answers its atlas. */
export const declareGrid = ({ gameId, fileId, grid }: GridInput) =>
  apiParse(atlasSchema, `/games/${gameId}/files/${fileId}/grid`, { method: 'PUT', body: grid });

/** DELETE /games/{id}/files/{fileId}/grid: the image is a plain image again. */
export const removeGrid = ({ gameId, fileId }: Omit<GridInput, 'grid'>) =>
  apiRequest(`/games/${gameId}/files/${fileId}/grid`, { method: 'DELETE' });

export const useDeclareGrid = () =>
  useApiMutation(['atlases', 'grid', 'declare'], declareGrid, ({ gameId }) => [atlasKeys.game(gameId)]);
export const useRemoveGrid = () =>
  useApiMutation(['atlases', 'grid', 'remove'], removeGrid, ({ gameId }) => [atlasKeys.game(gameId)]);
