import { userSchema, type SignupBody, type User } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { usersQueryKey } from './list-users';

/** POST /user/signup, the admin's add user (SPEC §7). */
export async function createUser(body: SignupBody): Promise<User> {
  return userSchema.parse(await apiRequest('/user/signup', { method: 'POST', body }));
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
