import { gameSchema, type Game, type UpdateGameBody } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { gamesQueryKey } from './list-games';

export interface UpdateGameInput {
  id: number;
  body: UpdateGameBody;
}

/** PATCH /games/{id}: the inline edit (imagePath and rootPath go as '' when missing, SPEC §7). */
export async function updateGame({ id, body }: UpdateGameInput): Promise<Game> {
  const sent: UpdateGameBody = { ...body, imagePath: body.imagePath ?? '', rootPath: body.rootPath ?? '' };
  return gameSchema.parse(await apiRequest(`/games/${id}`, { method: 'PATCH', body: sent }));
}

export function useUpdateGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGame,
    onSettled: () => queryClient.invalidateQueries({ queryKey: gamesQueryKey }),
  });
}
