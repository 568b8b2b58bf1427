import type { Kysely } from 'kysely';
import { nowIso, toIso } from '../../db/database';
import type { Database } from '../../db/schema';

export type TokenPurpose = 'verify-email' | 'reset-password';

/** The mail side's reads and writes: the links' tokens, the recipients, the inbox events to mail (decision 0035). */
export class MailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  on(trx: Kysely<Database>): MailRepository {
    return new MailRepository(trx);
  }

  transaction<T>(work: (repository: MailRepository, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(this.on(trx), trx));
  }

  /** The user a mail goes to (not their password hash). */
  async recipient(userId: number) {
    return this.db
      .selectFrom('users')
      .select([
        'id',
        'username',
        'email',
        'emailVerified',
        'activated',
        'inboxMail',
        'roleTypeId',
        'tokenVersion',
      ])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  async recipientByEmail(email: string) {
    return this.db
      .selectFrom('users')
      .select([
        'id',
        'username',
        'email',
        'emailVerified',
        'activated',
        'inboxMail',
        'roleTypeId',
        'tokenVersion',
      ])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async insertToken(token: {
    userId: number;
    purpose: TokenPurpose;
    tokenHash: string;
    email: string;
    expiresAt: string;
    tokenVersion: number;
  }): Promise<void> {
    await this.db
      .insertInto('userTokens')
      .values({ ...token, createdAt: nowIso() })
      .execute();
  }

  async findToken(tokenHash: string, purpose: TokenPurpose) {
    const row = await this.db
      .selectFrom('userTokens')
      .select(['id', 'userId', 'email', 'expiresAt', 'usedAt', 'tokenVersion'])
      .where('tokenHash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return (
      row && {
        ...row,
        expiresAt: toIso(row.expiresAt),
        usedAt: row.usedAt === null ? null : toIso(row.usedAt),
      }
    );
  }

  /** Marks a token used if it is still unused and unexpired; false when another request used it first. */
  async useToken(id: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('userTokens')
      .set({ usedAt: now })
      .where('id', '=', id)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A user's unused tokens of a purpose end (a new password: older reset links no longer work). */
  async endTokens(userId: number, purpose: TokenPurpose, now: string): Promise<void> {
    await this.db
      .updateTable('userTokens')
      .set({ usedAt: now })
      .where('userId', '=', userId)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .execute();
  }

  /** Tokens past their end for a day are of no use to anyone: deleted by the worker's rounds. */
  async deleteOldTokens(before: string): Promise<void> {
    await this.db.deleteFrom('userTokens').where('expiresAt', '<', before).execute();
  }

  async setEmailVerified(userId: number, email: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ emailVerified: 1, updatedAt: nowIso() })
      .where('id', '=', userId)
      .where('email', '=', email)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * A new password from a reset link: every session ends (the token version), and the address counts as verified.
   * Only while the account is active and still at the link's token version (decision 0044): false otherwise, so a
   * password change, reset or suspension that commits first ends the link even mid-request.
   */
  async setPasswordFromReset(
    userId: number,
    passwordHash: string,
    verifiedEmail: string,
    linkTokenVersion: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set((eb) => ({
        passwordHash,
        tokenVersion: eb('tokenVersion', '+', 1),
        updatedAt: nowIso(),
      }))
      .where('id', '=', userId)
      .where('activated', '=', 1)
      .where('tokenVersion', '=', linkTokenVersion)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await this.setEmailVerified(userId, verifiedEmail);
    return true;
  }

  async inboxMail(userId: number): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('inboxMail').where('id', '=', userId).executeTakeFirst())
      ?.inboxMail;
  }

  async setInboxMail(userId: number, inboxMail: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ inboxMail, updatedAt: nowIso() })
      .where('id', '=', userId)
      .execute();
  }

  /** Inbox events with their recipient, actor and game names; `undecided`: only those mail has not decided yet. */
  async events(ids: number[], undecided: boolean) {
    if (ids.length === 0) return [];
    let query = this.db
      .selectFrom('inboxEvents as e')
      .innerJoin('users as u', 'u.id', 'e.userId')
      .leftJoin('users as a', 'a.id', 'e.actorId')
      .leftJoin('games as g', 'g.id', 'e.gameId')
      .leftJoin('gameVersions as v', 'v.id', 'e.versionId')
      .leftJoin('users as o', 'o.id', 'v.userId')
      .select([
        'e.id',
        'e.userId',
        'e.kind',
        'e.gameId',
        'e.userGameId',
        'e.versionId',
        'e.fileId',
        'e.text',
        'e.createdAt',
        'u.username',
        'u.email',
        'u.emailVerified',
        'u.inboxMail',
        'u.activated',
        'u.roleTypeId',
        'a.username as actorName',
        'g.name as gameName',
        'v.userId as versionOwnerId',
        'o.username as versionOwnerName',
      ])
      .where('e.id', 'in', ids)
      .orderBy('e.id');
    if (undecided) query = query.where('e.mailState', 'is', null);
    return query.execute();
  }

  /** Decides an event's mail once, whichever server asks first: false when it was decided already. */
  async decideEvent(id: number, state: 'sent' | 'digest' | 'skipped'): Promise<boolean> {
    const result = await this.db
      .updateTable('inboxEvents')
      .set({ mailState: state })
      .where('id', '=', id)
      .where('mailState', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Events no server has decided (a hook lost with its server) created between the two times, oldest first. */
  async undecidedEvents(after: string, before: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('inboxEvents')
      .select('id')
      .where('mailState', 'is', null)
      .where('createdAt', '>', after)
      .where('createdAt', '<', before)
      .orderBy('id')
      .limit(500)
      .execute();
    return rows.map((row) => row.id);
  }

  /** The users with events waiting for a digest from before `before`. */
  async digestUsers(before: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('inboxEvents')
      .select('userId')
      .distinct()
      .where('mailState', '=', 'digest')
      .where('createdAt', '<', before)
      .execute();
    return rows.map((row) => row.userId);
  }

  /** Takes a user's waiting digest events (from before `before`) for one digest: each is taken by one server only. */
  async takeDigest(userId: number, before: string, state: 'digested' | 'skipped'): Promise<number[]> {
    const rows = await this.db
      .updateTable('inboxEvents')
      .set({ mailState: state })
      .where('userId', '=', userId)
      .where('mailState', '=', 'digest')
      .where('createdAt', '<', before)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }
}
