import { RoleType, messages, type RoleTypeId } from '@reskin/contract';
import type { UserRow } from '../../../api/users';

export type UserActionKind = 'delete' | 'password' | 'role' | 'activate';

export interface UserAction {
  kind: UserActionKind;
  user: UserRow;
}

/** The role toggle: Demo users go back to normal users, everyone else becomes Demo (SPEC §2, §4). */
export function toggledRole(roleTypeId: number): RoleTypeId {
  return roleTypeId === RoleType.Demo ? RoleType.User : RoleType.Demo;
}

export function roleToggleLabel(roleTypeId: number): string {
  return roleTypeId === RoleType.Demo ? 'Convert to Normal User' : 'Convert to Demo';
}

export function confirmQuestion({ kind, user }: UserAction): string {
  switch (kind) {
    case 'delete':
      return messages.confirmDeleteUser(user.username);
    case 'password':
      return messages.confirmResetPassword(user.username);
    case 'role':
      return messages.confirmUpdateRole(user.username);
    case 'activate':
      return messages.confirmActivateUser(user.username);
  }
}
