import {
  myGamesSchema,
  userGameSchema,
  type CreateUserGameBody,
  type SearchFilter,
  type UpdateUserGameBody,
} from '@reskin/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiList, apiParse, apiRequest, type ListParams } from '../lib/api-client';
import { useApiMutation } from './mutation';

export const userGameKeys = {
  all: ['user-games'] as const,
  lists: () => [...userGameKeys.all, 'list'] as const,
  list: (params: ListParams) => [...userGameKeys.lists(), params] as const,
  details: () => [...userGameKeys.all, 'detail'] as const,
  detail: (id: number) => [...userGameKeys.details(), id] as const,
  mine: () => [...userGameKeys.all, 'mine'] as const,
};

/** A row of the list: the assignment with its user and game, and its versions' review counts. */
export const userGameRowSchema = userGameSchema.pick({
  id: true,
  userId: true,
  gameId: true,
  userGameTypeId: true,
  jobPrice: true,
  isActive: true,
  versionCount: true,
  finishedCount: true,
  lastFinishedAt: true,
  toReviewCount: true,
  openNotes: true,
  username: true,
  gameName: true,
  user: true,
  game: true,
});
export type UserGameRow = z.infer<typeof userGameRowSchema>;

const headerSchema = userGameSchema.pick({ id: true, userId: true, gameId: true, user: true, game: true });
export type UserGameHeader = z.infer<typeof headerSchema>;

/** POST /user-games/filter: the assignments matching a search query, and how many match. */
export const filterUserGames = <T>(schema: z.ZodType<T>, filter: SearchFilter) =>
  apiList('/user-games/filter', { body: filter, schema });

/** GET /user-games/my-games: the caller's active assignments, each with its game and card image URL. */
export const listMyGames = () => apiParse(myGamesSchema, '/user-games/my-games');

/** POST /user-games: assign a game to a user. */
export const createUserGame = (body: CreateUserGameBody) =>
  apiParse(userGameSchema, '/user-games', { method: 'POST', body });

/** PUT /user-games/{id}: job type and budget. */
export const updateUserGame = ({ id, body }: { id: number; body: UpdateUserGameBody }) =>
  apiParse(userGameSchema, `/user-games/${id}`, { method: 'PUT', body });

/** DELETE /user-games/{id}: the assignment and its versions. */
export const deleteUserGame = (id: number) => apiRequest(`/user-games/${id}`, { method: 'DELETE' });

/** DELETE /user-games/{id}/changeActivity: Remove Access / Give Access. */
export const toggleUserGameActivity = (id: number) =>
  apiRequest(`/user-games/${id}/changeActivity`, { method: 'DELETE' });

/** A page of the assignments with their users and games (newest first unless `params` orders them). */
export const useUserGames = (params: ListParams = {}) =>
  useQuery({
    queryKey: userGameKeys.list(params),
    queryFn: () =>
      filterUserGames(userGameRowSchema, { include: ['user', 'game'], order: 'id DESC', ...params }),
    placeholderData: keepPreviousData,
  });

/** One assignment with its user and game: the header of the versions screen (null when there is none). */
export const useUserGame = (id: number | null) =>
  useQuery({
    queryKey: userGameKeys.detail(id ?? 0),
    queryFn: async () =>
      (await filterUserGames(headerSchema, { where: { id }, include: ['user', 'game'], limit: 1 }))
        .items[0] ?? null,
    enabled: id !== null,
  });

/**
 * The assignment of a game to a user with a job type, if there is one, active or not (the add form says so before
 * submitting: one per user, game and job type); null when none. Under lists(): an add reloads it.
 */
export const useExistingAssignment = (assignment: {
  userId?: number;
  gameId?: number;
  userGameTypeId?: number;
}) => {
  const { userId, gameId, userGameTypeId } = assignment;
  return useQuery({
    queryKey: [...userGameKeys.lists(), 'assignment', userId, gameId, userGameTypeId],
    queryFn: async () =>
      (
        await filterUserGames(userGameSchema.pick({ id: true, isActive: true }), {
          where: { userId, gameId, userGameTypeId },
          fields: ['id', 'isActive'],
          limit: 1,
        })
      ).items[0] ?? null,
    enabled:
      userId !== undefined &&
      gameId !== undefined &&
      userGameTypeId !== undefined &&
      !Number.isNaN(userGameTypeId),
  });
};

export const useMyGames = () => useQuery({ queryKey: userGameKeys.mine(), queryFn: listMyGames });

/** One assignment of the caller, found in My Games by its id (a reload or pasted link has only the id). */
export function useMyGame(userGameId: number | null) {
  const myGames = useMyGames();
  const userGame = myGames.data?.find((item) => item.id === userGameId);
  return { ...myGames, userGame };
}

const reloadUserGames = () => [userGameKeys.lists()];

export const useCreateUserGame = () =>
  useApiMutation([...userGameKeys.all, 'create'], createUserGame, reloadUserGames);
export const useUpdateUserGame = () =>
  useApiMutation([...userGameKeys.all, 'update'], updateUserGame, reloadUserGames);
export const useDeleteUserGame = () =>
  useApiMutation([...userGameKeys.all, 'delete'], deleteUserGame, reloadUserGames);
export const useToggleUserGameActivity = () =>
  useApiMutation([...userGameKeys.all, 'activity'], toggleUserGameActivity, reloadUserGames);
