import { can, type TokenUser } from '@reskin/contract';

/** Who may do what with users (SPEC §6, DESIGN.md "Users and sessions"): the role table's rules plus the record. */

/** An admin never deletes, resets or re-roles their own account from the admin screen. */
export function canManageUser(actor: Pick<TokenUser, 'id' | 'roleTypeId'>, targetId: number): boolean {
  return can(actor.roleTypeId, 'users.manage') && actor.id !== targetId;
}

/** A user's detail is visible to administrators and to the user. */
export function canSeeUser(actor: Pick<TokenUser, 'id' | 'roleTypeId'>, targetId: number): boolean {
  return can(actor.roleTypeId, 'users.manage') || actor.id === targetId;
}

/**
 * Whether suspending, deleting or demoting `targetId` would leave no active administrator: it is one
 * of `activeAdminIds` (read and locked in the change's own transaction) and the only one.
 */
export function isLastActiveAdmin(activeAdminIds: readonly number[], targetId: number): boolean {
  return activeAdminIds.includes(targetId) && activeAdminIds.length <= 1;
}
