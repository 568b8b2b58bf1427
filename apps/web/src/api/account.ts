import { tokenResponseSchema, userSchema, type UpdateUserBody } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse, apiRequest, type RequestOptions } from '../lib/api-client';
import { fetchMe } from '../lib/session/current-user';
import { useApiMutation } from './mutation';

export const accountKeys = { all: ['account'] as const, me: () => [...accountKeys.all, 'me'] as const };

/** GET /user/me: the current user (the account screen, and the session's start-up check). */
export const getMe = async (options?: RequestOptions) => userSchema.parse(await fetchMe(options));

/** PUT /user/update: answers a new token carrying the new username and email. */
export const updateAccount = (body: UpdateUserBody) =>
  apiParse(tokenResponseSchema, '/user/update', { method: 'PUT', body });

/** DELETE /user/disable: suspends the caller's own account. */
export const disableAccount = () => apiRequest('/user/disable', { method: 'DELETE' });

// Always fresh: the screen shows what the server holds now, not what the token said.
export const useAccount = () =>
  useQuery({ queryKey: accountKeys.me(), queryFn: () => getMe(), staleTime: 0, gcTime: 0 });

export const useUpdateAccount = () => useApiMutation([...accountKeys.all, 'update'], updateAccount);
export const useDisableAccount = () => useApiMutation([...accountKeys.all, 'disable'], disableAccount);
