import { tokenResponseSchema, type TokenResponse, type UpdateUserBody } from '@reskin/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** PUT /user/update: answers a new token carrying the new username and email. */
export async function updateAccount(body: UpdateUserBody): Promise<TokenResponse> {
  return tokenResponseSchema.parse(await apiRequest('/user/update', { method: 'PUT', body }));
}

export function useUpdateAccount() {
  return useMutation({ mutationFn: updateAccount });
}
