import { passwordResetResponseSchema } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { usersQueryKey } from './list-users';

/** PUT /user/update/password { userId }: the server generates a password and answers it once. */
export async function resetPassword(userId: number): Promise<string> {
  const { password } = passwordResetResponseSchema.parse(
    await apiRequest('/user/update/password', { method: 'PUT', body: { userId } }),
  );
  return password ?? '';
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
