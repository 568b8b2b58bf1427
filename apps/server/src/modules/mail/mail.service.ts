import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import {
  can,
  errorCodes,
  mailLimits,
  mailMessages,
  mailTokenLifetimes,
  type ErrorCode,
  type InboxMailSetting,
  type MailSettings,
  type TokenUser,
} from '@reskin/contract';
import { AppError, badRequest, tooManyAttempts } from '../../lib/errors';
import type { Database } from '../../db/schema';
import { limiter } from '../../lib/limiters';
import { fullVolumeOf } from '../../storage/storage-faults';
import { assertMayEditAccount, assertUncommonPassword, hashPassword } from '../users/users.service';
import { mailPriority, type MailOutbox } from './mail-outbox';
import type { MailRepository, TokenPurpose } from './mail.repository';
import {
  digestMail,
  eventsListedPerMail,
  gatheredEventsMail,
  inboxEventMail,
  resetPasswordMail,
  verifyEmailMail,
  type MailedEvent,
  type TemplateContext,
} from './mail-templates';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

export const mailOff = () => new AppError(404, errorCodes.mailOff, mailMessages.mailOff);
const tokenGone = (message: string, code: ErrorCode) => new AppError(410, code, message);
/** A reset link whose account changed since it was mailed (decision 0044): as invalid as one never issued. */
const linkEnded = () => badRequest(mailMessages.tokenInvalid, errorCodes.tokenInvalid);

/** The account a link is made for: its address and its token version now. */
interface LinkHolder {
  id: number;
  email: string;
  tokenVersion: number;
}

/** The start of the daily digest period that has begun last: today's digest hour (UTC) if past, else yesterday's. */
export function lastDigestTime(nowMs: number, hourUtc: number): number {
  const today = new Date(nowMs);
  today.setUTCHours(hourUtc, 0, 0, 0);
  return today.getTime() <= nowMs ? today.getTime() : today.getTime() - 24 * 60 * 60_000;
}

/**
 * Mail (decision 0035): the verification of an address, forgot and reset password, the mail setting, and
 * the inbox's events as mail (each, a daily digest, or never). Mail goes out through the outbox (MailOutbox); with
 * mail off (no SMTP_URL) `outbox` is undefined and the mail features answer 404 MAIL_OFF, while the links already
 * mailed (verify, reset) keep working.
 */
export class MailService {
  private readonly forgotPerAddress: RateLimiterAbstract;
  private readonly resetMailsPerRequester: RateLimiterAbstract;
  private readonly resetMailsPerAccount: RateLimiterAbstract;
  /**
   * Reset mails asked for while the data volume was full (the token and the outbox row could not be written): the
   * account and when it was asked, tried again by every round until written or as old as a reset link's lifetime.
   */
  private readonly resetsWaitingForSpace = new Map<number, number>();
  private readonly verificationMailsPerAccount: RateLimiterAbstract;
  /** Work a request started and did not wait for (forgot password): close() and tests wait for it. */
  private readonly pending = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly mail: MailRepository,
    private readonly outbox: MailOutbox | undefined,
    private readonly templates: TemplateContext,
    private readonly digestHourUtc: number,
    redis: Redis | undefined,
    private readonly log: FastifyBaseLogger,
    /** Told after a reset changed a user's password (the users' caches forget them: UsersService.changed). */
    private readonly userChanged: (userId: number) => void,
  ) {
    const hour = 60 * 60;
    this.forgotPerAddress = limiter(redis, {
      keyPrefix: 'reskin-forgot-address',
      points: mailLimits.forgotPerAddressPerHour,
      duration: hour,
    });
    this.resetMailsPerRequester = limiter(redis, {
      keyPrefix: 'reskin-reset-mails-requester',
      points: mailLimits.resetMailsPerRequesterPerHour,
      duration: hour,
    });
    this.resetMailsPerAccount = limiter(redis, {
      keyPrefix: 'reskin-reset-mails',
      points: mailLimits.resetMailsPerAccountPerHour,
      duration: hour,
    });
    this.verificationMailsPerAccount = limiter(redis, {
      keyPrefix: 'reskin-verify-mails',
      points: mailLimits.verificationMailsPerAccountPerHour,
      duration: hour,
    });
  }

  get enabled(): boolean {
    return this.outbox !== undefined;
  }

  /** The worker's rounds every `pollMs`: undecided events, due digests, due mail. */
  start(pollMs: number): void {
    if (!this.outbox) return;
    this.timer = setInterval(
      () => void this.tick().catch((error: unknown) => this.log.warn({ err: error }, 'a mail round failed')),
      pollMs,
    );
    this.timer.unref();
    this.outbox.wake();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.settled();
    await this.outbox?.close();
  }

  /** Waits for the work requests left running (forgot password's lookups and mail). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /**
   * One round of the worker: reset mails a full disk held back, events no server decided yet (older than a minute:
   * their server's hook was lost), the digests due, tokens long expired, then every due mail. Answers how many mails
   * were sent.
   */
  async tick(): Promise<number> {
    if (!this.outbox) return 0;
    await this.retryResetsWaitingForSpace();
    const now = Date.now();
    const stray = await this.mail.undecidedEvents(iso(now - 24 * 60 * 60_000), iso(now - 60_000));
    if (stray.length > 0) await this.mailInboxEvents(stray);
    await this.sendDigests();
    await this.mail.deleteOldTokens(iso(now - 24 * 60 * 60_000));
    return this.outbox.tick();
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => this.log.error({ err: error }, 'mail work failed'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /**
   * A new random token for a link; only its SHA-256 is stored, with the address it goes to, its end and the
   * account's token version (a reset link ends when that changes: decision 0044).
   */
  private async issueToken(
    repository: MailRepository,
    user: LinkHolder,
    purpose: TokenPurpose,
    lifetimeMs: number,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await repository.insertToken({
      userId: user.id,
      purpose,
      tokenHash: sha256(token),
      email: user.email,
      expiresAt: iso(Date.now() + lifetimeMs),
      tokenVersion: user.tokenVersion,
    });
    return token;
  }

  /**
   * After a registration, an Add User or a change of email (UsersService): a verification link to the address. Does
   * nothing with mail off; never fails the request that caused it (a failure is logged).
   */
  async sendVerification(userId: number): Promise<void> {
    if (!this.outbox) return;
    try {
      await this.queueVerification(userId);
    } catch (error) {
      this.log.error({ err: error, userId }, 'the verification mail could not be queued');
    }
  }

  private async queueVerification(userId: number): Promise<boolean> {
    const outbox = this.outbox!;
    const queued = await this.mail.transaction(async (repository, trx) => {
      const user = await repository.recipient(userId);
      if (!user || user.emailVerified === 1) return false;
      const hours = mailTokenLifetimes.verifyEmailHours;
      const token = await this.issueToken(repository, user, 'verify-email', hours * 60 * 60_000);
      await outbox.enqueue(trx, user.email, verifyEmailMail(this.templates, user.username, token, hours));
      return true;
    });
    if (queued) outbox.wake();
    return queued;
  }

  /** "Send again" on the banner: a new verification link, a few per hour per account (429 after). */
  async resendVerification(actor: TokenUser): Promise<string> {
    assertMayEditAccount(actor);
    if (!this.outbox) throw mailOff();
    const user = await this.mail.recipient(actor.id);
    if (user?.emailVerified === 1) return mailMessages.verified;
    await this.consume(this.verificationMailsPerAccount, String(actor.id));
    await this.queueVerification(actor.id);
    return mailMessages.verificationSent;
  }

  /** Counts a point on a limiter; 429 RATE_LIMITED (with the wait) when none is left. */
  private async consume(limit: RateLimiterAbstract, key: string): Promise<void> {
    try {
      await limit.consume(key);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
      throw tooManyAttempts(Math.max(1, Math.ceil(ms / 1000)));
    }
  }

  /** POST /user/verify-email: the link's token verifies the address it was sent to (if the account still has it). */
  async verifyEmail(token: string): Promise<void> {
    const found = await this.usableToken(token, 'verify-email');
    await this.mail.transaction(async (repository) => {
      if (!(await repository.useToken(found.id, iso(Date.now()))))
        throw tokenGone(mailMessages.tokenUsed, errorCodes.tokenUsed);
      // A link to an address the account no longer has verifies nothing.
      if (!(await repository.setEmailVerified(found.userId, found.email)))
        throw badRequest(mailMessages.tokenInvalid, errorCodes.tokenInvalid);
    });
    this.userChanged(found.userId);
  }

  /** The stored token of a link: 400 unknown, 410 used or expired. */
  private async usableToken(token: string, purpose: TokenPurpose) {
    const found = await this.mail.findToken(sha256(token), purpose);
    if (!found) throw badRequest(mailMessages.tokenInvalid, errorCodes.tokenInvalid);
    if (found.usedAt !== null) throw tokenGone(mailMessages.tokenUsed, errorCodes.tokenUsed);
    if (found.expiresAt <= iso(Date.now()))
      throw tokenGone(mailMessages.tokenExpired, errorCodes.tokenExpired);
    return found;
  }

  /**
   * POST /user/forgot-password: counts the address as asked for by this requester (429 after a few an hour, known or
   * not), then answers at once; the lookup and the mail happen after the answer, so a known and an unknown email
   * answer alike, in the same time. The count is per requester (IP) too (decision 0044), so a stranger's requests do
   * not lock the owner out. An account gets at most a few reset mails an hour per requester, and a few more from all
   * (more are dropped silently); a disabled one gets none.
   */
  async forgotPassword(email: string, requester: string): Promise<void> {
    if (!this.outbox) throw mailOff();
    const address = email.trim().toLowerCase();
    await this.consume(this.forgotPerAddress, `${address} ${requester}`);
    // After the answer has gone: on SQLite the queries run on this thread, and started now they would delay it.
    this.track(
      new Promise((resolve) => setImmediate(resolve)).then(() => this.queueReset(address, requester)),
    );
  }

  private async queueReset(address: string, requester: string): Promise<void> {
    const user = await this.mail.recipientByEmail(address);
    if (!user || user.activated !== 1) return;
    try {
      await this.resetMailsPerRequester.consume(`${user.id} ${requester}`);
      await this.resetMailsPerAccount.consume(String(user.id));
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      this.log.info({ userId: user.id }, 'reset mails of this account are throttled; none sent');
      return;
    }
    await this.writeReset(user.id, Date.now());
  }

  /**
   * The reset link and its mail, in one transaction. A full data volume (the answer, 202, has gone already) keeps the
   * request in memory for the next rounds instead of losing it (decision 0044).
   */
  private async writeReset(userId: number, askedAt: number): Promise<void> {
    const outbox = this.outbox!;
    const minutes = mailTokenLifetimes.resetPasswordMinutes;
    try {
      const queued = await this.mail.transaction(async (repository, trx) => {
        const user = await repository.recipient(userId);
        if (!user || user.activated !== 1) return false;
        const token = await this.issueToken(repository, user, 'reset-password', minutes * 60_000);
        await outbox.enqueue(
          trx,
          user.email,
          resetPasswordMail(this.templates, user.username, token, minutes),
        );
        return true;
      });
      this.resetsWaitingForSpace.delete(userId);
      if (queued) outbox.wake();
    } catch (error) {
      if (fullVolumeOf(error) === undefined) throw error;
      this.log.warn(
        { userId },
        'a reset mail could not be queued: the data volume is full; it is tried again',
      );
      this.resetsWaitingForSpace.set(userId, askedAt);
    }
  }

  /** Reset mails a full disk held back, each tried again (given up once as old as a reset link's lifetime). */
  private async retryResetsWaitingForSpace(): Promise<void> {
    const oldest = Date.now() - mailTokenLifetimes.resetPasswordMinutes * 60_000;
    for (const [userId, askedAt] of [...this.resetsWaitingForSpace]) {
      if (askedAt < oldest) this.resetsWaitingForSpace.delete(userId);
      else await this.writeReset(userId, askedAt);
    }
  }

  /**
   * POST /user/reset-password: the link's token (once, before its end) sets a new password by the register form's
   * rules; every session of the account ends (token version, decision 0013) and its other reset links too. The
   * address the link reached counts as verified. A link whose account has since changed its password or email, been
   * reset by an admin, re-roled, suspended or deleted is 400 TOKEN_INVALID (decision 0044).
   */
  async resetPassword(token: string, password: string): Promise<void> {
    assertUncommonPassword(password, '/password');
    const found = await this.usableToken(token, 'reset-password');
    const holder = await this.mail.recipient(found.userId);
    if (!holder || holder.activated !== 1 || holder.tokenVersion !== found.tokenVersion) throw linkEnded();
    const passwordHash = await hashPassword(password);
    await this.mail.transaction(async (repository) => {
      const now = iso(Date.now());
      if (!(await repository.useToken(found.id, now)))
        throw tokenGone(mailMessages.tokenUsed, errorCodes.tokenUsed);
      // Checked again in the update itself: a change committed since the read above ends the link too.
      if (
        !(await repository.setPasswordFromReset(found.userId, passwordHash, found.email, found.tokenVersion))
      )
        throw linkEnded();
      await repository.endTokens(found.userId, 'reset-password', now);
    });
    this.userChanged(found.userId);
  }

  async settings(actor: TokenUser): Promise<MailSettings> {
    return { inboxMail: ((await this.mail.inboxMail(actor.id)) ?? 'each') as InboxMailSetting };
  }

  async saveSettings(actor: TokenUser, settings: MailSettings): Promise<MailSettings> {
    assertMayEditAccount(actor);
    await this.mail.setInboxMail(actor.id, settings.inboxMail);
    return settings;
  }

  /**
   * The inbox's new events as mail (called after they are committed: the review side's onEventsAdded hook, and the
   * worker for any a lost hook left): per the recipient's setting, a mail ('sent'), the next digest ('digest') or
   * none ('skipped'). Only verified addresses get inbox mail (decision 0044): an unverified or disabled account's
   * events are skipped. Each event is decided once across servers by a conditional update, in the transaction that
   * queues its mail. With mail off nothing is decided (the events stay as they are).
   */
  async mailInboxEvents(ids: readonly number[]): Promise<void> {
    const outbox = this.outbox;
    if (!outbox || ids.length === 0) return;
    let queued = false;
    for (const event of await this.mail.events([...ids], true)) {
      const setting = event.activated === 1 && event.emailVerified === 1 ? event.inboxMail : 'never';
      const state = setting === 'each' ? 'sent' : setting === 'digest' ? 'digest' : 'skipped';
      await this.mail.transaction(async (repository, trx) => {
        if (!(await repository.decideEvent(event.id, state))) return;
        if (state !== 'sent') return;
        await this.gatherEvent(repository, trx, event);
        queued = true;
      });
    }
    if (queued) outbox.wake();
  }

  /**
   * One event to mail (decision 0044): it joins its recipient's notification that is still waiting, or starts one
   * that waits `eventMailGatherMinutes` for more, so 300 notes in a burst are one mail, not 300. Notifications go
   * after transactional mail (mailPriority).
   */
  private async gatherEvent(
    repository: MailRepository,
    trx: Kysely<Database>,
    event: EventRow,
  ): Promise<void> {
    const outbox = this.outbox!;
    const waiting = await outbox.waitingNotification(trx, event.userId);
    if (!waiting) {
      await outbox.enqueue(
        trx,
        event.email,
        inboxEventMail(this.templates, event.username, mailedEvent(event)),
        {
          priority: mailPriority.notification,
          notBefore: Date.now() + mailLimits.eventMailGatherMinutes * 60_000,
          recipientId: event.userId,
          eventIds: [event.id],
        },
      );
      return;
    }
    const eventIds = [...waiting.eventIds, event.id];
    const listed = (await repository.events(eventIds.slice(0, eventsListedPerMail), false)).map(mailedEvent);
    await outbox.rewrite(
      trx,
      waiting.id,
      gatheredEventsMail(this.templates, event.username, listed, eventIds.length),
      eventIds,
    );
  }

  /**
   * The daily digest: every user with events waiting from before the last digest hour gets them in one mail. Which
   * server takes a user's events is decided row by row (takeDigest), so each event is in one digest only.
   */
  async sendDigests(): Promise<number> {
    const outbox = this.outbox;
    if (!outbox) return 0;
    const before = iso(lastDigestTime(Date.now(), this.digestHourUtc));
    let sent = 0;
    for (const userId of await this.mail.digestUsers(before)) {
      const done = await this.mail.transaction(async (repository, trx) => {
        const user = await repository.recipient(userId);
        const wanted = user?.activated === 1 && user.emailVerified === 1 && user.inboxMail !== 'never';
        const ids = await repository.takeDigest(userId, before, wanted ? 'digested' : 'skipped');
        if (!wanted || ids.length === 0) return false;
        const events = (await repository.events(ids, false)).map(mailedEvent);
        await outbox.enqueue(trx, user.email, digestMail(this.templates, user.username, events), {
          priority: mailPriority.notification,
        });
        return true;
      });
      if (done) sent += 1;
    }
    if (sent > 0) outbox.wake();
    return sent;
  }
}

type EventRow = Awaited<ReturnType<MailRepository['events']>>[number];

function mailedEvent(event: EventRow): MailedEvent {
  return {
    kind: event.kind,
    actorName: event.actorName,
    gameName: event.gameName,
    gameId: event.gameId,
    userGameId: event.userGameId,
    versionId: event.versionId,
    fileId: event.fileId,
    versionOwner:
      event.versionOwnerId === null ? null : event.versionOwnerId === event.userId ? 'yours' : 'others',
    versionOwnerName: event.versionOwnerName,
    text: event.text,
    // A reviewer's link opens the review screen, unless the version is the reader's own (its artist's workbench).
    toReviewer: can(event.roleTypeId, 'versions.review') && event.versionOwnerId !== event.userId,
  };
}
