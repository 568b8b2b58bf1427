import { userSchema, type User } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const accountQueryKey = ['account', 'me'] as const;

/** GET /user/me: the full current user for the account screen. */
export async function getAccount(): Promise<User> {
  return userSchema.parse(await apiRequest('/user/me'));
}

export function useAccount() {
  // Always fresh: the screen shows what the server holds now, not what the token said.
  return useQuery({ queryKey: accountQueryKey, queryFn: getAccount, staleTime: 0, gcTime: 0 });
}
