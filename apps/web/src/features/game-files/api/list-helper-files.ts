import { helperFilesSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type HelperFiles = z.infer<typeof helperFilesSchema>;
export type HelperFile = HelperFiles['files'][number];

export const helperFilesQueryKey = (gameId: number) => ['games', 'helper-files', gameId] as const;

/** GET /games/{id}/psd-files/: each url carries a short-lived download ticket, so a plain link opens it. */
export async function listHelperFiles(gameId: number): Promise<HelperFiles> {
  return helperFilesSchema.parse(await apiRequest(`/games/${gameId}/psd-files/`));
}

export function useHelperFiles(gameId: number) {
  return useQuery({ queryKey: helperFilesQueryKey(gameId), queryFn: () => listHelperFiles(gameId) });
}
