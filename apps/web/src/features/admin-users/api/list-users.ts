import { userSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const usersQueryKey = ['users', 'list'] as const;

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

/** POST /user/list with an empty search query: every user. */
export async function listUsers(): Promise<UserRow[]> {
  return z.array(userRowSchema).parse(await apiRequest('/user/list', { method: 'POST', body: {} }));
}

export function useUsers() {
  return useQuery({ queryKey: usersQueryKey, queryFn: listUsers });
}
