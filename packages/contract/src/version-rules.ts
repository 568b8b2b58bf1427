import { errorCodes } from './error-codes';
import { limits } from './limits';
import { can } from './permissions';

/**
 * Who may change a game version, and when (decision 0007). One definition: the server's versions
 * service asks it before every change and answers its refusal; the web hides or disables the controls with
 * its message.
 */

/**
 * Every change of an existing version: PATCH, DELETE, an upload, a Restore original, I Finished My Game, and writing
 * or changing a note on it (a reviewer always may; its artist not on a locked or disabled version).
 */
export type VersionChange = 'rename' | 'delete' | 'upload' | 'restore' | 'finish' | 'note';

export const versionRuleMessages = {
  demo: 'Demo accounts cannot create or change versions.',
  locked: 'This version is locked by the reviewer: it cannot be changed.',
  disabled: 'This version is disabled by the reviewer: it is read-only.',
  /** The reviewer's own upload or restore on a locked version: the lock freezes the files for everyone. */
  lockedFiles: 'This version is locked: its files do not change until it is unlocked.',
  /** VER-2: the 7th version of a user-game (the server's 409 VERSION_LIMIT; the add form shows it instead of itself). */
  limit: `A game can have at most ${limits.versionsPerUserGame} versions.`,
} as const;

/**
 * Whether `actor` may add a version to a user-game that has `versionCount` versions (the versions screen
 * and the add form offer only what the server allows): null when they may, else why not. The server asks it
 * before its insert and keeps the count race-safe (VER-2); the web hides Add New Version and the form with it.
 */
export function versionCreateRefusal(actor: { roleTypeId: number }, versionCount: number): string | null {
  if (!can(actor.roleTypeId, 'versions.change')) return versionRuleMessages.demo;
  if (versionCount >= limits.versionsPerUserGame) return versionRuleMessages.limit;
  return null;
}

export interface VersionRefusal {
  /** 403 for a role that may not change versions at all; 423 for a version whose state refuses the change. */
  statusCode: 403 | 423;
  code: typeof errorCodes.forbidden | typeof errorCodes.versionLocked | typeof errorCodes.versionDisabled;
  /** What a person reads: the envelope's message and the reason the UI shows. */
  message: string;
}

/**
 * Why `actor` may not make `change` to `version`, or null when they may. Ownership is not asked here (someone
 * else's version is a 404 before this).
 * - A role without 'versions.change' (demo): every change, 403 FORBIDDEN.
 * - A role with 'versions.review' (the admin, the reviewer): the lock freezes the files (upload, restore: 423 VERSION_LOCKED); renaming, deleting
 *   and finishing stay theirs, and a disabled version is still theirs to change.
 * - The artist: a locked version refuses every change (423 VERSION_LOCKED), a disabled one too (423
 *   VERSION_DISABLED): both are read-only until the reviewer unlocks or enables them.
 */
export function versionChangeRefusal(
  actor: { roleTypeId: number },
  version: { isLocked: boolean; isActive: boolean },
  change: VersionChange,
): VersionRefusal | null {
  if (!can(actor.roleTypeId, 'versions.change')) {
    return { statusCode: 403, code: errorCodes.forbidden, message: versionRuleMessages.demo };
  }
  if (can(actor.roleTypeId, 'versions.review')) {
    const filesChange = change === 'upload' || change === 'restore';
    return version.isLocked && filesChange
      ? { statusCode: 423, code: errorCodes.versionLocked, message: versionRuleMessages.lockedFiles }
      : null;
  }
  if (version.isLocked)
    return { statusCode: 423, code: errorCodes.versionLocked, message: versionRuleMessages.locked };
  if (!version.isActive) {
    return { statusCode: 423, code: errorCodes.versionDisabled, message: versionRuleMessages.disabled };
  }
  return null;
}
