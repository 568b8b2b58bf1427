import {
  passwordResetResponseSchema,
  userSchema,
  userSearchFilter,
  type RoleTypeId,
  type SearchFilter,
  type SignupBody,
} from '@reskin/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiList, apiParse, apiRequest, type ListParams } from '../lib/api-client';
import { useApiMutation } from './mutation';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: ListParams) => [...userKeys.lists(), params] as const,
};

/** What the users table shows of a user. */
export const userRowSchema = userSchema.pick({
  id: true,
  username: true,
  email: true,
  roleTypeId: true,
  activated: true,
  emailVerified: true,
});
export type UserRow = z.infer<typeof userRowSchema>;

/** POST /user/list: the users matching a search query, and how many match. */
export const filterUsers = <T>(schema: z.ZodType<T>, filter: SearchFilter, signal?: AbortSignal) =>
  apiList('/user/list', { body: filter, schema, signal });

/** The typeahead's user search (SPEC §5): 10 usernames containing `text`. */
export async function searchUsers(text: string, signal?: AbortSignal) {
  const hitSchema = z.object({ id: z.number().int(), username: z.string() });
  const { items } = await filterUsers(hitSchema, userSearchFilter(text), signal);
  return items.map((hit) => ({ id: hit.id, label: hit.username }));
}

/** POST /user/create: the admin's Add User, with signup's body and answer but not its rate limit. */
export const createUser = (body: SignupBody) =>
  apiParse(userSchema, '/user/create', { method: 'POST', body });

/** PUT /user/activate/{id}: re-activates a suspended account. */
export const activateUser = (id: number) => apiRequest(`/user/activate/${id}`, { method: 'PUT' });

/** DELETE /user/delete/{id} */
export const deleteUser = (id: number) => apiRequest(`/user/delete/${id}`, { method: 'DELETE' });

/** PUT /user/update/password { userId }: the server generates a password and answers it once. */
export const resetPassword = async (userId: number) =>
  (await apiParse(passwordResetResponseSchema, '/user/update/password', { method: 'PUT', body: { userId } }))
    .password ?? '';

/** PUT /user/role/{id}/{roleId} with an empty body. */
export const updateRole = ({ id, roleTypeId }: { id: number; roleTypeId: RoleTypeId }) =>
  apiRequest(`/user/role/${id}/${roleTypeId}`, { method: 'PUT' });

/** The users table: a page of the users matching `params`, and how many match. */
export const useUsers = (params: ListParams = {}) =>
  useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => filterUsers(userRowSchema, params),
    placeholderData: keepPreviousData,
  });

const reloadUsers = () => [userKeys.lists()];

export const useCreateUser = () => useApiMutation([...userKeys.all, 'create'], createUser, reloadUsers);
export const useActivateUser = () => useApiMutation([...userKeys.all, 'activate'], activateUser, reloadUsers);
export const useDeleteUser = () => useApiMutation([...userKeys.all, 'delete'], deleteUser, reloadUsers);
export const useResetPassword = () =>
  useApiMutation([...userKeys.all, 'reset-password'], resetPassword, reloadUsers);
export const useUpdateRole = () => useApiMutation([...userKeys.all, 'role'], updateRole, reloadUsers);
