import { userSchema, type SignupBody, type User } from '@reskin/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /user/signup: self-registration. */
export async function signup(body: SignupBody): Promise<User> {
  return userSchema.parse(await apiRequest('/user/signup', { method: 'POST', body }));
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
