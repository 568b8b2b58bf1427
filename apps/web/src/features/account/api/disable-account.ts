import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /user/disable: suspends the caller's own account. */
export async function disableAccount(): Promise<void> {
  await apiRequest('/user/disable', { method: 'DELETE' });
}

export function useDisableAccount() {
  return useMutation({ mutationFn: disableAccount });
}
