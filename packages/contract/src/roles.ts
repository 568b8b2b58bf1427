/** Role ids of SPEC §3. The admin flag is true only for role 1. */
export const RoleType = {
  Admin: 1,
  User: 100,
  Demo: 1000,
} as const;

export type RoleTypeId = (typeof RoleType)[keyof typeof RoleType];

export const roleTypeIds = [RoleType.Admin, RoleType.User, RoleType.Demo] as const;

export function isRoleTypeId(value: number): value is RoleTypeId {
  return (roleTypeIds as readonly number[]).includes(value);
}

/** The read-only role text of the account screen (SPEC §2 Account settings). */
export function roleName(roleTypeId: number): 'Admin' | 'User' | 'Other' {
  if (roleTypeId === RoleType.Admin) return 'Admin';
  if (roleTypeId === RoleType.User) return 'User';
  return 'Other';
}

/** Job type of a user-game (SPEC §1). */
export const UserGameType = {
  ReSkin: 1,
  SoundReplace: 2,
} as const;

/** Game status (DESIGN.md "Games, files, variants"). */
export const GameStatus = {
  Draft: 1,
  Ready: 2,
  Generating: 3,
  Failed: 4,
} as const;

/** Game version status (DESIGN.md "User-games, versions, uploads"). */
export const GameVersionStatus = {
  InProgress: 1,
  Finished: 2,
} as const;
