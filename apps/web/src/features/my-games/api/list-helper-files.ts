import { helperFilesSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type HelperFiles = z.infer<typeof helperFilesSchema>;

/** GET /games/{id}/psd-files/: the game's helper files, each with a download URL carrying a short ticket. */
export async function listHelperFiles(gameId: number): Promise<HelperFiles> {
  return helperFilesSchema.parse(await apiRequest(`/games/${gameId}/psd-files/`));
}

// The tickets expire after 15 minutes: fetch fresh ones on each visit.
export function useHelperFiles(gameId: number | null) {
  return useQuery({
    queryKey: ['my-games', 'helper-files', gameId],
    queryFn: () => listHelperFiles(gameId ?? 0),
    enabled: gameId !== null,
    gcTime: 0,
  });
}
