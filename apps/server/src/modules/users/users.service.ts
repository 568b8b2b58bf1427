import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Redis } from 'ioredis';
import type { LRUCache } from 'lru-cache';
import {
  RoleType,
  can,
  errorCodes,
  conflictMessages,
  emailChangeNeedsPassword,
  validationMessages as m,
  type ErrorDetail,
  type PasswordResetResponse,
  type RoleTypeId,
  type SearchFilter,
  type SignupBody,
  type TokenUser,
  type UpdatePasswordBody,
  type UpdateUserBody,
  type User,
} from '@reskin/contract';
import { isUniqueViolation, type Dialect } from '../../db/database';
import { isCommonPassword } from './common-passwords';
import { AppError, conflict, forbidden, notFound, unauthorized, unprocessable } from '../../lib/errors';
import type { DeviceCookies } from './device-cookies';
import { FailedAttempts } from './failed-attempts';
import { keptFor } from '../../lib/kept-answers';
import type { SessionTokens } from './tokens';
import { compileFilter, pickFields } from '../../search/filter';
import type { Page } from '../../search/page';
import type { StoredFilesService } from '../stored-files/stored-files.service';
import { searchableUser, type UsersRepository } from './users.repository';
import { canManageUser, canSeeUser, isLastActiveAdmin } from './users.policy';

/** argon2id with the library's defaults (memory-hard; about 50 ms here). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** 403 unless the actor may change their own account (a demo account may not): the account and mail routes. */
export function assertMayEditAccount(actor: Pick<User, 'roleTypeId'>): void {
  if (!can(actor.roleTypeId, 'account.edit')) throw forbidden('Demo accounts cannot be changed.');
}

/** 401 of a login or password check that fails: never says which of the two was wrong. */
const wrongCredentials = () => unauthorized('Invalid email or password.', errorCodes.invalidCredentials);

/** Whether a password matches an argon2 hash (false for a malformed hash). */
function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

/** A readable random password for an admin reset: 12 characters of letters and digits. */
function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  return Array.from(randomBytes(12), (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * 409 LAST_ADMIN when the change of `targetId` would leave none of `activeAdminIds` (read and locked in the
 * change's transaction: UsersRepository.lockActiveAdmins) active; the transaction then rolls back.
 */
function assertNotLastAdmin(activeAdminIds: readonly number[], targetId: number): void {
  if (isLastActiveAdmin(activeAdminIds, targetId))
    throw conflict(conflictMessages.lastAdmin, errorCodes.lastAdmin);
}

/**
 * 422 VALIDATION_FAILED with the field's detail when a new password is on the common list (lib/common-passwords.ts),
 * like the contract's other password rules: the web app shows the detail under the field named by `path`.
 */
export function assertUncommonPassword(password: string, path: '/password' | '/newPassword'): void {
  if (!isCommonPassword(password)) return;
  const message = m.commonPassword;
  throw unprocessable('The request body is invalid.', [{ path, code: 'common_password', message }]);
}

/** Sessions and user administration (SPEC §7 "Users and session"). */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: SessionTokens,
    /** Signs and checks the device cookies of login (decision 0021). */
    private readonly devices: DeviceCookies,
    private readonly dialect: Dialect,
    private readonly storedFiles: StoredFilesService,
    /** Shares the failed-attempt counters with every app server (REDIS_URL); undefined: this process only. */
    redis: Redis | undefined,
    /**
     * How long a request's user, once read, is kept for the next requests of the same user (PLAY_ACCESS_CACHE_SECONDS:
     * how late a revocation may come on another server; this server forgets a user as soon as it changes them). 0: read every time.
     */
    userCacheMs = 0,
    /**
     * Told after this server changed a user (their token version, role, state, or deleted them), so what else this
     * server keeps about them goes at once too (the play origin's answers: PlayAccess.forgetUser).
     */
    private readonly userChanged: (id: number) => void = () => {},
  ) {
    this.failedLogins = new FailedAttempts('login', redis);
    this.failedDeviceLogins = new FailedAttempts('login-device', redis);
    this.failedPasswordChecks = new FailedAttempts('password-change', redis);
    this.recentUsers = keptFor(userCacheMs, 10_000);
  }

  /** Wrong passwords at login from unknown devices, per email. */
  private readonly failedLogins: FailedAttempts;
  /** Wrong passwords at login from a known device, per device cookie (decision 0021). */
  private readonly failedDeviceLogins: FailedAttempts;
  /** Wrong current passwords of a password change, per user. */
  private readonly failedPasswordChecks: FailedAttempts;
  /** A hash of a random password with the same parameters, verified for unknown emails; computed once at start. */
  private readonly dummyHash = hashPassword(randomBytes(16).toString('hex'));

  /**
   * Checks credentials and answers a session token and a new device cookie for the browser. Wrong passwords are
   * counted (FailedAttempts): from an unknown device per email, from a known device (`deviceCookie`, a valid one for
   * this account: decision 0021) per device cookie, so failures from elsewhere never slow a browser the owner has
   * logged in with. While the count waits, every attempt answers 429, even with the right password. An unknown
   * email verifies the password against a dummy hash, so it takes the same work as a known one (no account
   * enumeration by timing). A disabled account says so only after its right password.
   */
  async login(
    email: string,
    password: string,
    deviceCookie?: string,
  ): Promise<{ token: string; deviceCookie: string }> {
    const accountKey = email.trim().toLowerCase();
    const claimed = this.devices.read(deviceCookie);
    // Without a device cookie (an attacker's usual case) a waiting account answers 429 before any database read.
    if (!claimed) await this.failedLogins.assertNotWaiting(accountKey);
    const credentials = await this.users.findCredentials(email.trim());
    const device = claimed && credentials?.id === claimed.userId ? claimed : undefined;
    const [failures, key] = device
      ? [this.failedDeviceLogins, `${device.userId}.${device.nonce}`]
      : [this.failedLogins, accountKey];
    // With a signed cookie: its own count when it is this account's; another account's cookie is an unknown device.
    if (claimed) await failures.assertNotWaiting(key);
    const valid = await verifyPassword(credentials?.passwordHash ?? (await this.dummyHash), password);
    if (!credentials || !valid) {
      await failures.fail(key);
      throw wrongCredentials();
    }
    if (credentials.activated !== 1)
      throw unauthorized('This account is disabled.', errorCodes.accountDisabled);
    // A known device's success clears its own count only: the owner logging in must not give an attacker who is
    // failing from elsewhere a fresh set of free guesses.
    await failures.succeed(key);
    return { token: await this.newToken(credentials.id), deviceCookie: this.devices.issue(credentials.id) };
  }

  /**
   * The user behind a session token, re-read so that deleted, disabled or re-roled users lose access at once; a
   * token signed before the user's last password change, reset, role change or suspension (another token
   * version, decision 0013) has none.
   */
  async authenticate(token: string): Promise<User | undefined> {
    const claims = await this.tokens.verify(token);
    if (!claims) return undefined;
    const found = await this.currentUser(claims.user.id);
    if (!found || !found.user.activated || found.tokenVersion !== claims.tokenVersion) return undefined;
    return found.user;
  }

  /**
   * Users read by authenticate, kept for userCacheMs (keptFor; a read per request
   * was 3-8% of its time), 10,000 at most, the least recently used going first. A user not found is kept too (in an
   * object: lru-cache keeps no undefined).
   */
  private readonly recentUsers:
    LRUCache<number, { found: Awaited<ReturnType<UsersRepository['findWithTokenVersion']>> }> | undefined;

  private async currentUser(id: number) {
    const cached = this.recentUsers?.get(id);
    if (cached) return cached.found;
    const found = await this.users.findWithTokenVersion(id);
    this.recentUsers?.set(id, { found });
    return found;
  }

  /**
   * The user's token version, as authenticate knows it (kept for userCacheMs like the user): what play links carry,
   * so a link made just after a password change on another server may carry the old one for that long, and is
   * refused as soon as the play origin's access check sees the new one.
   */
  async tokenVersionOf(id: number): Promise<number> {
    return (await this.currentUser(id))?.tokenVersion ?? 0;
  }

  /**
   * The user and their token version as authenticate checks them (kept for userCacheMs, forgotten at once when
   * this server changes them): the image previews' grants are checked against it like a session (decision 0038).
   */
  current(id: number): Promise<{ user: User; tokenVersion: number } | undefined> {
    return this.currentUser(id);
  }

  /** After this server changed a user: the next request (a session's or a play link's) reads them anew. */
  private forget(id: number): void {
    this.recentUsers?.delete(id);
    this.userChanged(id);
  }

  /** Another module changed a user (mail: a reset password, a verified address): forgotten like our own changes. */
  changed(id: number): void {
    this.forget(id);
  }

  /** Told when an account's address needs verifying: after a registration, an Add User, a change of email (mail). */
  private emailToVerify: (userId: number) => Promise<void> = async () => {};

  onEmailToVerify(listener: (userId: number) => Promise<void>): void {
    this.emailToVerify = listener;
  }

  /** Registers a regular user: POST /user/signup, and an admin's Add User (POST /user/create). */
  async signup(body: SignupBody): Promise<User> {
    assertUncommonPassword(body.password, '/password');
    await this.assertFree(body.email, body.username);
    const passwordHash = await hashPassword(body.password);
    try {
      const id = await this.users.insert({
        username: body.username,
        email: body.email,
        passwordHash,
        firstName: body.firstName,
        lastName: body.lastName,
        phone: body.phone,
        roleTypeId: RoleType.User,
        dataProtectionRegulationVersion: body.dataProtectionRegulationVersion,
      });
      const user = await this.mustFind(id);
      await this.emailToVerify(id);
      return user;
    } catch (error) {
      // A concurrent signup took the email or username between the check and the insert.
      if (isUniqueViolation(error)) await this.assertFree(body.email, body.username);
      throw error;
    }
  }

  /** POST /user/list: one page of the users matching a search query, and how many match in all. */
  async list(filter: SearchFilter): Promise<Page<Partial<User>>> {
    const compiled = compileFilter(filter, searchableUser, this.dialect);
    const page = await this.users.list(compiled);
    return { ...page, rows: page.rows.map((user) => pickFields(user, compiled.fields)) };
  }

  async detail(actor: TokenUser, id: number): Promise<User> {
    if (!canSeeUser(actor, id)) throw forbidden();
    return this.mustFind(id);
  }

  /**
   * Deletes a user with their assignments and versions (cascade), then the versions' stored files. Never the last
   * active administrator (409 LAST_ADMIN), checked in the delete's own transaction.
   */
  async delete(actor: TokenUser, id: number): Promise<void> {
    this.assertCanManage(actor, id);
    const deleted = await this.storedFiles.deleteOwner({ kind: 'user', id }, async (trx) =>
      assertNotLastAdmin(await this.users.on(trx).lockActiveAdmins(), id),
    );
    this.forget(id);
    if (!deleted) throw notFound('User');
  }

  /**
   * Changes a user's role and ends their sessions: they log in again and get a token with the new role. The last
   * active administrator keeps theirs (409 LAST_ADMIN).
   */
  async setRole(actor: TokenUser, id: number, roleTypeId: RoleTypeId): Promise<void> {
    this.assertCanManage(actor, id);
    const updated = await this.users.withActiveAdmins(async (activeAdminIds, users) => {
      if (roleTypeId !== RoleType.Admin) assertNotLastAdmin(activeAdminIds, id);
      return users.update(id, { roleTypeId }, { endSessions: true });
    });
    this.forget(id);
    if (!updated) throw notFound('User');
  }

  /**
   * Suspends the caller's own account; every token of theirs stops working at once, and stays ended after a
   * re-activation. The last active administrator cannot (409 LAST_ADMIN): nobody could re-activate anyone.
   */
  async disableOwn(actor: TokenUser): Promise<void> {
    if (!can(actor.roleTypeId, 'account.edit')) throw forbidden('Demo accounts cannot be suspended.');
    await this.users.withActiveAdmins(async (activeAdminIds, users) => {
      assertNotLastAdmin(activeAdminIds, actor.id);
      await users.update(actor.id, { activated: false }, { endSessions: true });
    });
    this.forget(actor.id);
  }

  /** PUT /user/activate/{id}: an admin re-activates an account (one suspended by its user), which can log in again. */
  async activate(id: number): Promise<void> {
    const updated = await this.users.update(id, { activated: true });
    this.forget(id);
    if (!updated) throw notFound('User');
  }

  /**
   * Changes the caller's username and email and answers a new token carrying them. A new email needs the current
   * password (422 without one, 403 INVALID_CREDENTIALS when wrong, counted like a password change's) and ends every
   * other session, play link and download link of the account: the answered token has the new token
   * version, so the session that made the change goes on, as after a password change. A username alone changes
   * nothing else.
   */
  async updateOwn(actor: TokenUser, body: UpdateUserBody): Promise<string> {
    assertMayEditAccount(actor);
    const emailChanges = emailChangeNeedsPassword(actor.email, body.email);
    if (emailChanges) {
      if (!body.currentPassword) {
        throw unprocessable(m.currentPasswordRequired, [
          { path: '/currentPassword', code: 'required', message: m.currentPasswordRequired },
        ]);
      }
      await this.checkCurrentPassword(actor, body.currentPassword, () =>
        forbidden(m.currentPasswordWrong, errorCodes.invalidCredentials, [
          { path: '/currentPassword', code: 'wrong', message: m.currentPasswordWrong },
        ]),
      );
    }
    await this.assertFree(body.email, body.username, actor.id);
    try {
      await this.users.update(
        actor.id,
        // A new address is not verified until its link is followed.
        { username: body.username, email: body.email, ...(emailChanges ? { emailVerified: false } : {}) },
        { endSessions: emailChanges },
      );
      this.forget(actor.id);
    } catch (error) {
      if (isUniqueViolation(error)) await this.assertFree(body.email, body.username, actor.id);
      throw error;
    }
    if (emailChanges) await this.emailToVerify(actor.id);
    return this.newToken(actor.id);
  }

  /**
   * An admin's reset of another user's password (answers the generated password, once), or a user's change of
   * their own (answers a new session token). Either ends every session of the user whose password changed
   * (decision 0013); the one that changed its own password carries on with the new token.
   */
  async updatePassword(actor: TokenUser, body: UpdatePasswordBody): Promise<PasswordResetResponse> {
    if ('userId' in body) {
      this.assertCanManage(actor, body.userId);
      const password = generatePassword();
      const updated = await this.users.update(
        body.userId,
        { passwordHash: await hashPassword(password) },
        { endSessions: true },
      );
      this.forget(body.userId);
      if (!updated) throw notFound('User');
      return { password };
    }
    assertMayEditAccount(actor);
    assertUncommonPassword(body.newPassword, '/newPassword');
    await this.checkCurrentPassword(actor, body.oldPassword, () =>
      forbidden(m.currentPasswordWrong, errorCodes.invalidCredentials),
    );
    await this.users.update(
      actor.id,
      { passwordHash: await hashPassword(body.newPassword) },
      { endSessions: true },
    );
    this.forget(actor.id);
    return { password: null, token: await this.newToken(actor.id) };
  }

  /**
   * Checks the caller's current password before a change of their password or email. Wrong ones are counted per
   * user like failed logins (one counter for both changes); while it waits, 429 and no check.
   */
  private async checkCurrentPassword(
    actor: TokenUser,
    password: string,
    wrong: () => AppError,
  ): Promise<void> {
    const key = String(actor.id);
    await this.failedPasswordChecks.assertNotWaiting(key);
    const credentials = await this.users.findCredentials(actor.email);
    const valid = await verifyPassword(credentials?.passwordHash ?? (await this.dummyHash), password);
    if (!credentials || !valid) {
      await this.failedPasswordChecks.fail(key);
      throw wrong();
    }
    await this.failedPasswordChecks.succeed(key);
  }

  /** A session token for a user as they are now, with their current token version. */
  private async newToken(id: number): Promise<string> {
    const found = await this.users.findWithTokenVersion(id);
    if (!found) throw wrongCredentials();
    return this.tokens.sign(found.user, found.tokenVersion);
  }

  private assertCanManage(actor: TokenUser, targetId: number): void {
    if (actor.id === targetId) throw forbidden('You cannot do this to your own account.', errorCodes.ownRow);
    if (!canManageUser(actor, targetId)) throw forbidden();
  }

  private async assertFree(email: string, username: string, exceptId?: number): Promise<void> {
    const taken = await this.users.findTaken(email, username, exceptId);
    const details: ErrorDetail[] = [];
    if (taken.some((row) => row.email === email.toLowerCase())) {
      details.push({ path: '/email', code: 'unique', message: conflictMessages.email });
    }
    if (taken.some((row) => row.username.toLowerCase() === username.toLowerCase())) {
      details.push({ path: '/username', code: 'unique', message: conflictMessages.username });
    }
    if (details.length > 0) {
      const code = details[0]!.path === '/email' ? errorCodes.emailExists : errorCodes.usernameExists;
      throw conflict(details[0]!.message, code, details);
    }
  }

  private async mustFind(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw notFound('User');
    return user;
  }
}
