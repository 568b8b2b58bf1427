import type { RoleTypeId } from '@reskin/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { usersQueryKey } from './list-users';

export interface UpdateRoleInput {
  id: number;
  roleTypeId: RoleTypeId;
}

/** PUT /user/role/{id}/{roleId} with an empty body. */
export async function updateRole({ id, roleTypeId }: UpdateRoleInput): Promise<void> {
  await apiRequest(`/user/role/${id}/${roleTypeId}`, { method: 'PUT' });
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
