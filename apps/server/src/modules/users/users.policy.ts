import { RoleType, type TokenUser } from '@reskin/contract';

/** Who may do what with users (SPEC §6, DESIGN.md "Users and sessions"). Pure functions, no I/O. */

export function isAdmin(user: Pick<TokenUser, 'roleTypeId'>): boolean {
  return user.roleTypeId === RoleType.Admin;
}

/** An admin never deletes, resets or re-roles their own account from the admin screen. */
export function canManageUser(actor: Pick<TokenUser, 'id' | 'roleTypeId'>, targetId: number): boolean {
  return isAdmin(actor) && actor.id !== targetId;
}

/** Demo accounts are shared: they may not change or suspend themselves. */
export function canEditOwnAccount(actor: Pick<TokenUser, 'roleTypeId'>): boolean {
  return actor.roleTypeId !== RoleType.Demo;
}

/** A user's detail is visible to administrators and to the user. */
export function canSeeUser(actor: Pick<TokenUser, 'id' | 'roleTypeId'>, targetId: number): boolean {
  return isAdmin(actor) || actor.id === targetId;
}
