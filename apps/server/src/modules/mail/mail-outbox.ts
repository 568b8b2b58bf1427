import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database';
import type { Database } from '../../db/schema';
import type { MailContent } from './mail-templates';

/** One message as the transport sends it. */
export interface OutgoingMail extends MailContent {
  from: string;
  to: string;
}

/** Sends one message or throws (the SMTP server refused it or could not be reached). */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  /** A round is over: let its connection go (the next send opens another). */
  idle(): void;
  close(): void;
}

/**
 * SMTP through nodemailer, loaded with import() only when SMTP_URL is set (like pg and ioredis). smtp://
 * upgrades to TLS when the server offers STARTTLS; smtps:// is TLS from the start. A round's mails share one pooled
 * connection, closed when the round ends: about 20 ms a mail against 140 ms with a connection each (measured against
 * smtp-server on this machine), so a reset mail behind a long queue of notifications leaves within a second
 * (decision 0044), and no connection is held open between rounds.
 */
export async function smtpTransport(smtpUrl: string): Promise<MailTransport> {
  const nodemailer = (await import('nodemailer')).default;
  const connect = () =>
    nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 1,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  let pooled: ReturnType<typeof connect> | undefined;
  const letGo = () => {
    pooled?.close();
    pooled = undefined;
  };
  return {
    send: async (mail) => {
      pooled ??= connect();
      await pooled.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    idle: letGo,
    close: letGo,
  };
}

/** Back-off after a failed attempt: 30 s, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}
/** A mail no server could send for this long is given up (logged as an error): three days. */
const giveUpAfterMs = 3 * 24 * 60 * 60_000;
/** How long a worker's claim on a row holds; a server that dies while sending leaves it to another after this. */
const claimMs = 2 * 60_000;
/** Rows one claim of a worker takes: a mail queued during a round waits for at most this many before it. */
export const outboxBatchSize = 20;

/** The order rows are claimed in (decision 0044): transactional mail (reset, verification) before notifications. */
export const mailPriority = { transactional: 0, notification: 1 } as const;

/** How a row is queued beyond its content: its rank, when it may go, and (notifications) whose events it tells. */
export interface EnqueueOptions {
  priority?: number;
  /** Not sent before this time (ms); default now. */
  notBefore?: number;
  recipientId?: number;
  eventIds?: number[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The persistent queue of mail (decision 0035): a mail is a row of `mailOutbox`, written in the transaction of what
 * caused it, so none is lost while the SMTP server is down or the app restarts. Every app server runs a worker:
 * woken when this server queues a mail, and every `pollMs` for the rest (other servers' mail, retries). A worker
 * claims due rows (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: a conditional update), sends each, and deletes it;
 * a failure leaves the row with its next attempt time (exponential back-off). Sends are at least once: a server that
 * dies between the SMTP server's acceptance and the delete leaves the row to be sent again after `claimMs`.
 */
export class MailOutbox {
  /** The worker's rounds run one after another; `tick()` waits for the round it starts. */
  private round: Promise<number> = Promise.resolve(0);
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
  ) {}

  /** Queues a mail on `db` (the caller's transaction, or the app's database); call wake() after it commits. */
  async enqueue(
    db: Kysely<Database>,
    to: string,
    content: MailContent,
    options: EnqueueOptions = {},
  ): Promise<void> {
    const now = Date.now();
    await db
      .insertInto('mailOutbox')
      .values({
        toAddress: to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        nextAttemptAt: iso(options.notBefore ?? now),
        createdAt: iso(now),
        priority: options.priority ?? mailPriority.transactional,
        recipientId: options.recipientId ?? null,
        eventIds: options.eventIds ? JSON.stringify(options.eventIds) : null,
      })
      .execute();
  }

  /**
   * The user's notification row that no worker has claimed yet, if any: new events join it (decision 0044). Call it
   * in a transaction; on PostgreSQL the row stays locked until it ends, so a worker's claim skips it meanwhile and
   * a claimed row is never changed.
   */
  async waitingNotification(
    db: Kysely<Database>,
    recipientId: number,
  ): Promise<{ id: number; eventIds: number[] } | undefined> {
    const row = await db
      .selectFrom('mailOutbox')
      .select(['id', 'eventIds'])
      .where('recipientId', '=', recipientId)
      .where('claimedUntil', 'is', null)
      .orderBy('id')
      .limit(1)
      .$if(this.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    return row && { id: row.id, eventIds: JSON.parse(row.eventIds ?? '[]') as number[] };
  }

  /** A waiting notification row told of more events: its new content (still unclaimed: the caller holds it). */
  async rewrite(db: Kysely<Database>, id: number, content: MailContent, eventIds: number[]): Promise<void> {
    await db
      .updateTable('mailOutbox')
      .set({
        subject: content.subject,
        text: content.text,
        html: content.html,
        eventIds: JSON.stringify(eventIds),
      })
      .where('id', '=', id)
      .where('claimedUntil', 'is', null)
      .execute();
  }

  /** Starts a round soon (a mail was just queued); errors are logged, not thrown. */
  wake(): void {
    if (!this.closed)
      void this.tick().catch((error: unknown) =>
        this.log.warn({ err: error }, 'the mail worker failed a round'),
      );
  }

  /** Polls every pollMs until close(). */
  start(): void {
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.round.catch(() => 0);
    this.transport.close();
  }

  /**
   * One round after any round already running: sends every due mail it can claim; answers how many were sent.
   * Tests call it directly (and set the clock with vi.setSystemTime) instead of waiting for the timer.
   */
  tick(): Promise<number> {
    const next = this.round.catch(() => 0).then(() => this.sendDue());
    this.round = next;
    return next;
  }

  private async sendDue(): Promise<number> {
    let sent = 0;
    try {
      for (;;) {
        const claimed = await this.claim();
        if (claimed.length === 0) return sent;
        for (const row of claimed) if (await this.sendOne(row)) sent += 1;
      }
    } finally {
      this.transport.idle();
    }
  }

  /** Claims up to batchSize due rows for claimMs; a row another worker holds is skipped. */
  private async claim() {
    const now = Date.now();
    if (this.dialect === 'postgres') {
      const result = await sql<ClaimedRow>`
        update "mailOutbox" set "claimedUntil" = ${iso(now + claimMs)}, "attempts" = "attempts" + 1
        where "id" in (
          select "id" from "mailOutbox"
          where "nextAttemptAt" <= ${iso(now)} and ("claimedUntil" is null or "claimedUntil" < ${iso(now)})
          order by "priority", "id" limit ${outboxBatchSize} for update skip locked)
        returning "id", "toAddress", "subject", "text", "html", "attempts", "createdAt", "priority"`.execute(
        this.db,
      );
      // RETURNING keeps no order: transactional mail first again, then the oldest.
      return result.rows.sort((a, b) => a.priority - b.priority || a.id - b.id);
    }
    const candidates = await this.db
      .selectFrom('mailOutbox')
      .select('id')
      .where('nextAttemptAt', '<=', iso(now))
      .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', iso(now))]))
      .orderBy('priority')
      .orderBy('id')
      .limit(outboxBatchSize)
      .execute();
    const rows: ClaimedRow[] = [];
    for (const { id } of candidates) {
      const row = await this.db
        .updateTable('mailOutbox')
        .set((eb) => ({ claimedUntil: iso(now + claimMs), attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', iso(now))]))
        .returning(['id', 'toAddress', 'subject', 'text', 'html', 'attempts', 'createdAt', 'priority'])
        .executeTakeFirst();
      if (row) rows.push(row);
    }
    return rows;
  }

  /** Sends a claimed row: deleted once the SMTP server took it, else left for its next attempt. */
  private async sendOne(row: ClaimedRow): Promise<boolean> {
    try {
      await this.transport.send({
        from: this.from,
        to: row.toAddress,
        subject: row.subject,
        text: row.text,
        html: row.html,
      });
    } catch (error) {
      const now = Date.now();
      const why = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (now - new Date(row.createdAt).getTime() > giveUpAfterMs) {
        this.log.error(
          { mailId: row.id, attempts: row.attempts, why },
          'a mail could not be sent for three days; given up',
        );
        await this.db.deleteFrom('mailOutbox').where('id', '=', row.id).execute();
        return false;
      }
      const delayMs = retryDelayMs(row.attempts);
      this.log.warn(
        { mailId: row.id, attempts: row.attempts, why, retryInSeconds: delayMs / 1000 },
        'a mail could not be sent; it is tried again later',
      );
      await this.db
        .updateTable('mailOutbox')
        .set({ claimedUntil: null, nextAttemptAt: iso(now + delayMs), lastError: why })
        .where('id', '=', row.id)
        .execute();
      return false;
    }
    await this.db.deleteFrom('mailOutbox').where('id', '=', row.id).execute();
    return true;
  }
}

interface ClaimedRow {
  id: number;
  toAddress: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
  createdAt: string | Date;
  priority: number;
}
