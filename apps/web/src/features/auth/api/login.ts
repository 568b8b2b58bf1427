import { tokenResponseSchema, type LoginBody, type TokenResponse } from '@reskin/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /user/login. A 401 here is a wrong password, not a lost session: it stays on the login screen. */
export async function login(body: LoginBody): Promise<TokenResponse> {
  return tokenResponseSchema.parse(
    await apiRequest('/user/login', { method: 'POST', body, logoutOnUnauthorized: false }),
  );
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
