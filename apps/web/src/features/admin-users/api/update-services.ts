import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /admin/update: regenerates changed games and removes unreferenced files (its summary is not read). */
export async function updateServices(): Promise<void> {
  await apiRequest('/admin/update');
}

export function useUpdateServices() {
  return useMutation({ mutationFn: updateServices });
}
