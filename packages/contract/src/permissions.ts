import { RoleType, type RoleTypeId } from './roles';

/**
 * Who may do what: the one table of role rules (decision 0014). The server's guards and services and
 * the web's navigation, guards and buttons all ask `can(roleTypeId, action)`; nothing else compares role ids.
 * Rules that also depend on a record (whose version, which game is assigned, a version's lock) stay where that
 * record is read, and ask `can` for their role part.
 */
export const actions = [
  /** The administrators' API routes and screens (the server's requireAdmin, the web's RequireAdmin). */
  'admin.area',
  /** Other users' accounts: see, create, re-role, reset, suspend, delete (SPEC §6). Nav: Admin. */
  'users.manage',
  /** Games, their files and helper files (SPEC §5). Nav: Games. */
  'games.manage',
  /** Assigning games to users (SPEC §1 user-games). Nav: User Games. */
  'userGames.manage',
  /** Any game and any user's user-games and versions, not only one's own active assignments. */
  'games.seeAll',
  /** The reviewer's powers over versions: lock, disable, and change a disabled one (decision 0007). */
  'versions.review',
  /** The unwatermarked originals (DESIGN.md "Play"). */
  'play.original',
  /** Creating versions and changing them (rename, delete, upload, restore, finish), within the version rules. */
  'versions.change',
  /**
   * Writing notes on versions: a reviewer on any version, an artist on their own (the version's access
   * rules decide which); demo accounts are shared and write none.
   */
  'notes.write',
  /**
   * Declaring or removing a uniform grid on a game image: administrators only, since a grid decides where
   * the watermark's frame marks go (decision 0047).
   */
  'atlases.declareGrid',
  /** Changing or suspending one's own account (demo accounts are shared). Nav: the username link. */
  'account.edit',
  /** My Games opens the demo screen in place of the versions screen (SPEC §4). */
  'demo.play',
] as const;

export type Action = (typeof actions)[number];

const everyAdminAction: readonly Action[] = actions.filter((action) => action !== 'demo.play');

/** The table: each role and its actions (SPEC §3 roles: 1 admin, 100 user, 1000 demo). */
export const permissions: Record<RoleTypeId, readonly Action[]> = {
  [RoleType.Admin]: everyAdminAction,
  [RoleType.User]: ['versions.change', 'notes.write', 'account.edit'],
  [RoleType.Demo]: ['demo.play'],
};

/** Whether a role may do `action`; an unknown role may do nothing. */
export function can(roleTypeId: number, action: Action): boolean {
  return (
    (permissions as Record<number, readonly Action[] | undefined>)[roleTypeId]?.includes(action) ?? false
  );
}
