import {
  GameStatus,
  copiesUpdatingText,
  gameSchema,
  gameSearchFilter,
  type CreateGameBody,
  type SearchFilter,
  type UpdateGameBody,
} from '@reskin/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiList, apiParse, apiRequest, type ListPage, type ListParams } from '../lib/api-client';
import { useApiMutation } from './mutation';

export const gameKeys = {
  all: ['games'] as const,
  lists: () => [...gameKeys.all, 'list'] as const,
  list: (params: ListParams) => [...gameKeys.lists(), params] as const,
  details: () => [...gameKeys.all, 'detail'] as const,
  detail: (id: number) => [...gameKeys.details(), id] as const,
};

/** How often the list reloads while a game is Generating, so its status word turns Ready or Failed. */
export const generatingPollMs = 2000;

/**
 * A game as the search answers it: only the searchable columns, so no statusReason, imagePath or rootPath
 * (SPEC §7: the edit sends imagePath and rootPath empty when missing).
 */
export const gameListItemSchema = gameSchema.partial().required({
  id: true,
  name: true,
  description: true,
  width: true,
  height: true,
  gameStatusTypeId: true,
  isActive: true,
});
export type GameListItem = z.infer<typeof gameListItemSchema>;

export const isGenerating = (game: Pick<GameListItem, 'gameStatusTypeId'>) =>
  game.gameStatusTypeId === GameStatus.Generating;

/** Generating, or a Ready game whose changed files are getting their copies: its status will change. */
export const isBusy = (game: Pick<GameListItem, 'gameStatusTypeId' | 'copiesCurrent' | 'copiesTotal'>) =>
  isGenerating(game) || copiesUpdatingText(game) !== undefined;

/** POST /games/filter: the games matching a search query (at most 100 a query), and how many match. */
export const filterGames = <T>(schema: z.ZodType<T>, filter: SearchFilter, signal?: AbortSignal) =>
  apiList('/games/filter', { body: filter, schema, signal });

/** The typeahead's game search (SPEC §5): 10 games whose name contains `text`. */
export async function searchGames(text: string, signal?: AbortSignal) {
  const hitSchema = z.object({ id: z.number().int(), name: z.string() });
  const { items } = await filterGames(hitSchema, gameSearchFilter(text), signal);
  return items.map((hit) => ({ id: hit.id, label: hit.name }));
}

/** GET /games/{id}: the whole game (the list lacks the reason a generation failed). */
export const getGame = (id: number) => apiParse(gameSchema, `/games/${id}`);

/** POST /games: a new Draft game without files. */
export const createGame = (body: CreateGameBody) => apiParse(gameSchema, '/games', { method: 'POST', body });

/** PATCH /games/{id}: the inline edit (imagePath and rootPath go as '' when missing, SPEC §7). */
export const updateGame = ({ id, body }: { id: number; body: UpdateGameBody }) =>
  apiParse(gameSchema, `/games/${id}`, {
    method: 'PATCH',
    body: { ...body, imagePath: body.imagePath ?? '', rootPath: body.rootPath ?? '' },
  });

/** DELETE /games/{id}: the game with all its files. */
export const deleteGame = (id: number) => apiRequest(`/games/${id}`, { method: 'DELETE' });

/** GET /games/{id}/generate ('Gen.'): answers at once with the game, now Generating. */
export const generateGame = (id: number) => apiParse(gameSchema, `/games/${id}/generate`);

/** The games list, newest first; it reloads while any game on it is Generating or updating its copies. */
export const useGames = (params: ListParams = {}) =>
  useQuery({
    queryKey: gameKeys.list(params),
    queryFn: () => filterGames(gameListItemSchema, { order: 'id DESC', ...params }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some(isBusy) ? generatingPollMs : false),
  });

/** One game; it reloads while Generating or updating its copies (the files screen's status). */
export const useGame = (id: number | null, enabled = true) =>
  useQuery({
    queryKey: gameKeys.detail(id ?? 0),
    queryFn: () => getGame(id ?? 0),
    enabled: enabled && id !== null,
    refetchInterval: (query) => (query.state.data && isBusy(query.state.data) ? generatingPollMs : false),
  });

const reloadGames = () => [gameKeys.lists()];

export const useCreateGame = () => useApiMutation([...gameKeys.all, 'create'], createGame, reloadGames);
export const useUpdateGame = () => useApiMutation([...gameKeys.all, 'update'], updateGame, reloadGames);
/** The play settings go through the same PATCH (the game's whole edit, with the setting changed). */
export const useUpdatePlaySettings = () =>
  useApiMutation([...gameKeys.all, 'play-settings'], updateGame, ({ id }) => [
    gameKeys.lists(),
    gameKeys.detail(id),
  ]);
export const useDeleteGame = () => useApiMutation([...gameKeys.all, 'delete'], deleteGame, reloadGames);

export function useGenerateGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...gameKeys.all, 'generate'],
    mutationFn: generateGame,
    // Show the new status at once; the list itself reloads 2 s later (SPEC §2) and while anything generates.
    onSuccess: (game) => {
      queryClient.setQueryData(gameKeys.detail(game.id), game);
      queryClient.setQueriesData<ListPage<GameListItem>>(
        { queryKey: gameKeys.lists() },
        (page) =>
          page && {
            ...page,
            items: page.items.map((existing) => (existing.id === game.id ? game : existing)),
          },
      );
    },
  });
}
