import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { limits, mailLimits } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import { mailPriority, outboxBatchSize } from '../src/modules/mail/mail-outbox';
import { eventsListedPerMail } from '../src/modules/mail/mail-templates';
import { call, createTestApp, testDb, type TestApp, type TestUser } from './helpers';
import { newVersion, reviewWorld, type ReviewWorld } from './support/review-world';
import { linkToken, SmtpReceiver } from './support/smtp-receiver';

/**
 * Decision 0044: floods of notification mail are gathered per recipient, transactional mail goes ahead of them, and
 * only verified addresses get inbox mail; against a real SMTP server, on SQLite and PostgreSQL. The outbox's rounds
 * are run by the test (t.mail.tick()); the clock is faked (Date only) where minutes matter.
 */
const smtp = new SmtpReceiver();
let t: TestApp;
let world: ReviewWorld;

/** Queues are worked: the work requests left running, then a round of the worker. */
async function deliver(): Promise<number> {
  await t.mail.settled();
  return t.mail.tick();
}

async function verify(user: TestUser): Promise<void> {
  await deliver();
  const mail = smtp.to(user.email).find((received) => received.subject.startsWith('Verify'));
  expect(
    (await call(t, 'POST', '/api/user/verify-email', { payload: { token: linkToken(mail!) } })).statusCode,
  ).toBe(204);
}

/** The mails to a user other than their verification. */
const eventMails = (user: TestUser) =>
  smtp.to(user.email).filter((mail) => !mail.subject.startsWith('Verify'));

beforeAll(async () => {
  await smtp.start();
  t = await createTestApp({
    mail: {
      smtpUrl: smtp.url,
      from: '"Reskin Studio" <no-reply@app.test>',
      publicUrl: 'http://app.test',
      digestHourUtc: 8,
      pollMs: 3_600_000,
    },
    // 300 notes at once: far past the real throttle (posting-throttles.test.ts tests it).
    postingLimits: { notes: { perMinute: 1_000, burst: 1_000 }, finishes: limits.posting.finishes },
  });
  world = await reviewWorld(t);
  // admin is verified, admin2 is not: both get the artist's notes in the inbox, only admin by mail.
  await verify(world.admin);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await t?.close();
  await smtp.stop();
});

describe(`decision 0044: mail floods (${testDb})`, () => {
  it("300 notes by one artist within minutes reach a verified admin as one mail listing them, and an unverified admin's box not at all", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    const version = await newVersion(t, world, 'Flood');
    await deliver();
    const before = { admin: eventMails(world.admin).length, admin2: eventMails(world.admin2).length };
    const notes = 300;
    for (let i = 0; i < notes; i += 1) {
      const posted = await call(t, 'POST', `/api/game-versions/${version.id}/notes`, {
        token: world.artist.token,
        payload: { text: `Flood note ${i}` },
      });
      expect(posted.statusCode, posted.body).toBe(201);
    }
    // Each note's inbox events are decided for mail after its answer (the inbox hook): wait until none is left.
    await vi.waitFor(
      async () => {
        const undecided = await t.database.db
          .selectFrom('inboxEvents')
          .select('id')
          .where('mailState', 'is', null)
          .execute();
        expect(undecided).toEqual([]);
      },
      { timeout: 60_000, interval: 50 },
    );
    // Within the few minutes the first mail waits for more, nothing goes.
    await deliver();
    expect(eventMails(world.admin)).toHaveLength(before.admin);

    vi.setSystemTime(Date.now() + mailLimits.eventMailGatherMinutes * 60_000 + 1_000);
    await deliver();
    const mails = eventMails(world.admin).slice(before.admin);
    expect(mails.map((mail) => mail.subject)).toEqual([`${notes} new events · Reskin Studio`]);
    expect(mails[0]!.text).toContain('"Flood note 0"');
    expect(mails[0]!.text).toContain(`"Flood note ${eventsListedPerMail - 1}"`);
    expect(mails[0]!.text).toContain(`...and ${notes - eventsListedPerMail} more in your inbox`);
    expect(eventMails(world.admin2)).toHaveLength(before.admin2);
    // Both admins have every note in their inbox.
    for (const admin of [world.admin, world.admin2]) {
      const inbox = await call(t, 'GET', '/api/inbox', { token: admin.token });
      expect(inbox.json<{ unread: number }>().unread).toBeGreaterThanOrEqual(notes);
    }
  }, 180_000);

  it('a reset mail asked for behind 1,500 queued notifications goes out ahead of them, within the next claim of the round already sending', async () => {
    await deliver();
    const now = nowIso();
    const queued = 1_500;
    await t.database.db
      .insertInto('mailOutbox')
      .values(
        Array.from({ length: queued }, (_, i) => ({
          toAddress: `crowd-${i}@example.com`,
          subject: `Notification ${i}`,
          text: 'Something happened.',
          html: '<p>Something happened.</p>',
          nextAttemptAt: now,
          createdAt: now,
          priority: mailPriority.notification,
        })),
      )
      .execute();
    const start = smtp.mails.length;
    const sentSince = () => smtp.mails.slice(start).map((mail) => mail.subject);
    const round = t.mail.tick();
    // The round is under way: some notifications are out, most still queued.
    await vi.waitFor(() => expect(sentSince().length).toBeGreaterThanOrEqual(3 * outboxBatchSize), {
      timeout: 60_000,
      interval: 5,
    });
    expect(
      (await call(t, 'POST', '/api/user/forgot-password', { payload: { email: world.artist.email } }))
        .statusCode,
    ).toBe(202);
    await t.mail.settled();
    const askedAt = sentSince().length;
    const isReset = (subject: string) => subject.startsWith('Reset your password');
    await vi.waitFor(() => expect(sentSince().some(isReset)).toBe(true), { timeout: 60_000, interval: 5 });
    // The notifications still queued are let go, so the test does not wait for all of them to be sent.
    const left = await t.database.db
      .deleteFrom('mailOutbox')
      .where('priority', '=', mailPriority.notification)
      .executeTakeFirst();
    await round;

    const resetAt = sentSince().findIndex(isReset);
    expect(resetAt).toBeGreaterThanOrEqual(askedAt);
    // At most the one claim the round held when the reset was asked for went out between them.
    expect(resetAt - askedAt).toBeLessThanOrEqual(outboxBatchSize);
    expect(Number(left.numDeletedRows)).toBeGreaterThan(queued / 2);
  });
});
