import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RoleType, errorCodes, mailLimits, mailMessages, type RoleTypeId, type User } from '@reskin/contract';
import { nowIso } from '../src/db/database';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  login,
  signupBody,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { linkToken, SmtpReceiver } from './support/smtp-receiver';

/**
 * Decision 0035: Mail against a real SMTP server (smtp-server on a free port) on SQLite and PostgreSQL.
 * The outbox worker's rounds are run by the test (t.mail.tick()); the clock is faked (Date only) where time matters.
 */
const smtp = new SmtpReceiver();
let t: TestApp;

const mailConfig = () => ({
  smtpUrl: smtp.url,
  from: '"Reskin Studio" <no-reply@app.test>',
  publicUrl: 'http://app.test',
  digestHourUtc: 8,
  // The worker's own timer never fires during a test: the test runs its rounds.
  pollMs: 3_600_000,
});

async function outboxRows(app: TestApp = t) {
  return app.database.db.selectFrom('mailOutbox').selectAll().execute();
}

/** Queues are worked: the work requests left running, then a round of the worker. */
async function deliver(app: TestApp = t): Promise<number> {
  await app.mail.settled();
  return app.mail.tick();
}

/** A user whose address is verified by its link (inbox mail goes only to verified addresses, decision 0044). */
async function verifiedUser(role: RoleTypeId = RoleType.User): Promise<TestUser> {
  const user = await createUser(t, role);
  await deliver();
  const verify = smtp.to(user.email).find((mail) => mail.subject.startsWith('Verify'));
  expect(
    (await call(t, 'POST', '/api/user/verify-email', { payload: { token: linkToken(verify!) } })).statusCode,
  ).toBe(204);
  return user;
}

/** Past the few minutes an inbox event's mail waits for more of the recipient's events (decision 0044). */
const pastGathering = () => vi.setSystemTime(Date.now() + mailLimits.eventMailGatherMinutes * 60_000 + 1_000);

async function me(user: TestUser): Promise<User> {
  const response = await call(t, 'GET', '/api/user/me', { token: user.token });
  return response.json<User>();
}

beforeAll(async () => {
  await smtp.start();
  t = await createTestApp({ mail: mailConfig() });
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await t?.close();
  await smtp.stop();
});

describe(`mail (${testDb})`, () => {
  it('GET /api/config says mail is on', async () => {
    expect((await call(t, 'GET', '/api/config')).json()).toMatchObject({ mail: true });
  });

  it('the verification link of a registration verifies the address, once', async () => {
    const user = await createUser(t);
    await deliver();
    const [mail] = smtp.to(user.email);
    expect(mail?.subject).toBe('Verify your email address · Reskin Studio');
    expect(mail?.text).toContain('http://app.test/verify-email?token=');
    expect(mail?.html).toContain('href="http://app.test/verify-email?token=');
    expect((await me(user)).emailVerified).toBe(false);

    const token = linkToken(mail!);
    expect((await call(t, 'POST', '/api/user/verify-email', { payload: { token } })).statusCode).toBe(204);
    expect((await me(user)).emailVerified).toBe(true);
    // The users list's "Mail Verified" column shows it.
    const admin = await createUser(t, RoleType.Admin);
    const list = await call(t, 'POST', '/api/user/list', {
      token: admin.token,
      payload: { where: { id: user.id }, fields: ['emailVerified'] },
    });
    expect(list.json()).toEqual([{ emailVerified: true }]);

    const again = await call(t, 'POST', '/api/user/verify-email', { payload: { token } });
    expect(again.statusCode).toBe(410);
    expect(errorOf(again)).toMatchObject({ code: errorCodes.tokenUsed, message: mailMessages.tokenUsed });
    const unknown = await call(t, 'POST', '/api/user/verify-email', { payload: { token: 'x'.repeat(43) } });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).code).toBe(errorCodes.tokenInvalid);
  });

  it("an admin's Add User and a change of email mail a verification link; the new address is unverified until it is followed", async () => {
    const admin = await createUser(t, RoleType.Admin);
    const added = signupBody();
    expect(
      (await call(t, 'POST', '/api/user/create', { token: admin.token, payload: added })).statusCode,
    ).toBe(201);
    await deliver();
    expect(smtp.to(added.email)).toHaveLength(1);

    const user = await createUser(t);
    await deliver();
    const first = smtp.to(user.email)[0]!;
    expect(
      (await call(t, 'POST', '/api/user/verify-email', { payload: { token: linkToken(first) } })).statusCode,
    ).toBe(204);
    const newEmail = `changed_${user.username.toLowerCase()}@example.com`;
    const update = await call(t, 'PUT', '/api/user/update', {
      token: user.token,
      payload: { username: user.username, email: newEmail, currentPassword: user.password },
    });
    expect(update.statusCode).toBe(200);
    const token = update.json<{ token: string }>().token;
    const after = (await call(t, 'GET', '/api/user/me', { token })).json<User>();
    expect(after.emailVerified).toBe(false);
    await deliver();
    const mails = smtp.to(newEmail);
    expect(mails).toHaveLength(1);
    expect(
      (await call(t, 'POST', '/api/user/verify-email', { payload: { token: linkToken(mails[0]!) } }))
        .statusCode,
    ).toBe(204);
    expect((await call(t, 'GET', '/api/user/me', { token })).json<User>().emailVerified).toBe(true);
  });

  it('"Send again" mails a new link; a few an hour per account, then 429', async () => {
    const user = await createUser(t);
    await deliver();
    for (let i = 0; i < mailLimits.verificationMailsPerAccountPerHour; i += 1) {
      const response = await call(t, 'POST', '/api/user/verify-email/send', { token: user.token });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: mailMessages.verificationSent });
    }
    const refused = await call(t, 'POST', '/api/user/verify-email/send', { token: user.token });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe(errorCodes.rateLimited);
    await deliver();
    expect(smtp.to(user.email)).toHaveLength(1 + mailLimits.verificationMailsPerAccountPerHour);
  });

  it('a reset link sets the password once, ends every session and expires after an hour (fake clock)', async () => {
    const user = await createUser(t);
    await deliver();
    const before = smtp.to(user.email).length;
    const asked = await call(t, 'POST', '/api/user/forgot-password', {
      payload: { email: user.email.toUpperCase() },
    });
    expect(asked.statusCode).toBe(202);
    await deliver();
    const mails = smtp.to(user.email);
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe('Reset your password · Reskin Studio');
    const token = linkToken(mail);

    const common = await call(t, 'POST', '/api/user/reset-password', {
      payload: { token, password: 'password123' },
    });
    expect(common.statusCode).toBe(422);
    expect(errorOf(common).details?.[0]?.path).toBe('/password');

    const reset = await call(t, 'POST', '/api/user/reset-password', {
      payload: { token, password: 'Brand-new-pass-9' },
    });
    expect(reset.statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/user/me', { token: user.token })).statusCode).toBe(401);
    expect((await login(t, user.email, user.password)).statusCode).toBe(401);
    expect((await login(t, user.email, 'Brand-new-pass-9')).statusCode).toBe(200);
    // The mail reached its owner: the address counts as verified.
    const admin = await createUser(t, RoleType.Admin);
    const detail = await call(t, 'GET', `/api/user/detail/${user.id}`, { token: admin.token });
    expect(detail.json<User>().emailVerified).toBe(true);

    const reused = await call(t, 'POST', '/api/user/reset-password', {
      payload: { token, password: 'Another-pass-77' },
    });
    expect(reused.statusCode).toBe(410);
    expect(errorOf(reused)).toMatchObject({ code: errorCodes.tokenUsed, message: mailMessages.tokenUsed });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    await call(t, 'POST', '/api/user/forgot-password', { payload: { email: user.email } });
    await deliver();
    const late = linkToken(smtp.to(user.email).at(-1)!);
    vi.setSystemTime(Date.now() + 61 * 60_000);
    const expired = await call(t, 'POST', '/api/user/reset-password', {
      payload: { token: late, password: 'Another-pass-77' },
    });
    expect(expired.statusCode).toBe(410);
    expect(errorOf(expired)).toMatchObject({
      code: errorCodes.tokenExpired,
      message: mailMessages.tokenExpired,
    });
    expect((await login(t, user.email, 'Brand-new-pass-9')).statusCode).toBe(200);
  });

  it('an unknown email gets the same answer and no mail', async () => {
    const user = await createUser(t);
    await deliver();
    const count = smtp.mails.length;
    const known = await call(t, 'POST', '/api/user/forgot-password', { payload: { email: user.email } });
    await deliver();
    expect(smtp.mails.length).toBe(count + 1);
    const unknown = await call(t, 'POST', '/api/user/forgot-password', {
      payload: { email: 'nobody-here@example.com' },
    });
    await deliver();
    expect(smtp.mails.length).toBe(count + 1);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(await outboxRows()).toEqual([]);
  });

  it('forgot password is throttled per address (429 alike for known and unknown) and per account (silently)', async () => {
    const user = await createUser(t);
    await deliver();
    const before = smtp.to(user.email).length;
    for (const email of [user.email, 'throttled-nobody@example.com']) {
      for (let i = 0; i < mailLimits.forgotPerAddressPerHour; i += 1) {
        expect((await call(t, 'POST', '/api/user/forgot-password', { payload: { email } })).statusCode).toBe(
          202,
        );
      }
      const refused = await call(t, 'POST', '/api/user/forgot-password', { payload: { email } });
      expect(refused.statusCode).toBe(429);
      expect(errorOf(refused).code).toBe(errorCodes.rateLimited);
    }
    await deliver();
    // Five answers of 202 for the account, but only three reset mails an hour from one requester.
    expect(smtp.to(user.email).length - before).toBe(mailLimits.resetMailsPerRequesterPerHour);
  });

  it('mail content has no secret other than the link: no password, no token hash, no other address', async () => {
    const other = await createUser(t);
    const user = await createUser(t);
    await call(t, 'POST', '/api/user/forgot-password', { payload: { email: user.email } });
    await deliver();
    const hashes = (await t.database.db.selectFrom('userTokens').select('tokenHash').execute()).map(
      (row) => row.tokenHash,
    );
    for (const mail of smtp.to(user.email)) {
      expect(mail.raw).not.toContain(user.password);
      expect(mail.raw.toLowerCase()).not.toContain(other.email.toLowerCase());
      for (const hash of hashes) expect(mail.raw).not.toContain(hash);
      // The link's token is in the mail; only its hash is stored.
      const token = linkToken(mail);
      expect(hashes).toContain(createHash('sha256').update(token).digest('hex'));
      expect(hashes).not.toContain(token);
    }
  });

  it('an SMTP server that is down delays the mail, which arrives once it is back', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    await deliver();
    await smtp.stop();
    const body = signupBody();
    expect((await call(t, 'POST', '/api/user/signup', { payload: body })).statusCode).toBe(201);
    expect(await deliver()).toBe(0);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ toAddress: body.email, attempts: expect.any(Number) });
    expect(row!.attempts).toBeGreaterThanOrEqual(1);
    expect(row!.lastError).toBeTruthy();
    expect(row!.claimedUntil).toBeNull();
    // Not yet due again: a round now sends nothing and keeps it.
    expect(await deliver()).toBe(0);
    expect(await outboxRows()).toHaveLength(1);

    await smtp.start();
    expect(await deliver()).toBe(0);
    vi.setSystemTime(Date.now() + 31_000);
    expect(await deliver()).toBe(1);
    expect(smtp.to(body.email)).toHaveLength(1);
    expect(await outboxRows()).toEqual([]);
  });

  describe('inbox events as mail', () => {
    async function withSetting(inboxMail: 'each' | 'digest' | 'never'): Promise<TestUser> {
      const user = await verifiedUser();
      const saved = await call(t, 'PUT', '/api/user/mail-settings', {
        token: user.token,
        payload: { inboxMail },
      });
      expect(saved.statusCode).toBe(200);
      expect((await call(t, 'GET', '/api/user/mail-settings', { token: user.token })).json()).toEqual({
        inboxMail,
      });
      return user;
    }

    async function addEvent(
      userId: number,
      actorId: number,
      text: string,
      createdAt = nowIso(),
    ): Promise<number> {
      const row = await t.database.db
        .insertInto('inboxEvents')
        .values({ userId, kind: 'note', actorId, versionId: 7, gameId: null, userGameId: 3, text, createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    async function mailStates(ids: number[]) {
      const rows = await t.database.db
        .selectFrom('inboxEvents')
        .select(['id', 'mailState'])
        .where('id', 'in', ids)
        .orderBy('id')
        .execute();
      return rows.map((row) => row.mailState);
    }

    it('each event, a daily digest, or never, decided once per event', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-03-02T10:00:00.000Z'));
      const actor = await createUser(t, RoleType.Admin);
      const each = await withSetting('each');
      const digest = await withSetting('digest');
      const never = await withSetting('never');
      await deliver();
      const sent = smtp.mails.length;

      const ids = [
        await addEvent(each.id, actor.id, 'Make the hero blue'),
        await addEvent(digest.id, actor.id, 'Sharper edges please'),
        await addEvent(digest.id, actor.id, 'And a bigger sun'),
        await addEvent(never.id, actor.id, 'Nobody mails this'),
      ];
      await t.mail.mailInboxEvents(ids);
      // Asked again (another server, a retried hook): nothing more.
      await t.mail.mailInboxEvents(ids);
      pastGathering();
      await deliver();
      expect(await mailStates(ids)).toEqual(['sent', 'digest', 'digest', 'skipped']);
      expect(smtp.mails.length).toBe(sent + 1);
      const eachMail = smtp.to(each.email).at(-1);
      expect(eachMail?.subject).toContain(`${actor.username} wrote a note on your version`);
      expect(eachMail?.text).toContain('"Make the hero blue"');
      expect(eachMail?.text).toContain(
        'http://app.test/my-games/versions/workbench?versionId=7&userGameId=3',
      );
      expect(eachMail?.raw).not.toContain(actor.email);

      // Before the next digest hour nothing goes; after it, one mail with both events.
      expect(await t.mail.sendDigests()).toBe(0);
      vi.setSystemTime(new Date('2026-03-03T08:00:01.000Z'));
      expect(await t.mail.sendDigests()).toBe(1);
      expect(await t.mail.sendDigests()).toBe(0);
      await deliver();
      const digests = smtp.to(digest.email).filter((mail) => mail.subject.startsWith('Your daily digest'));
      expect(digests).toHaveLength(1);
      expect(digests[0]!.subject).toBe('Your daily digest: 2 new events · Reskin Studio');
      expect(digests[0]!.text).toContain('Sharper edges please');
      expect(digests[0]!.text).toContain('And a bigger sun');
      expect(await mailStates(ids)).toEqual(['sent', 'digested', 'digested', 'skipped']);
      expect(smtp.to(never.email).filter((mail) => !mail.subject.startsWith('Verify'))).toHaveLength(0);
    });

    it('a game assigned through the API is in the inbox and, for a user who chose each event, in a mail (the inbox hook wired in app.ts)', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date());
      const admin = await createUser(t, RoleType.Admin);
      const each = await withSetting('each');
      await deliver();
      const game = await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Mailed game', description: 'A game to assign', width: 640, height: 480 },
      });
      expect(game.statusCode, game.body).toBe(201);
      const assigned = await call(t, 'POST', '/api/user-games', {
        token: admin.token,
        payload: { userId: each.id, gameId: game.json<{ id: number }>().id, userGameTypeId: 1, jobPrice: 10 },
      });
      expect(assigned.statusCode, assigned.body).toBe(201);
      const inbox = await call(t, 'GET', '/api/inbox', { token: each.token });
      const event = inbox
        .json<{ events: { id: number; kind: string }[] }>()
        .events.find((e) => e.kind === 'game_assigned');
      expect(event).toBeDefined();
      // The hook runs after the commit, beside the answer: its decision is awaited, then the outbox is worked.
      await vi.waitFor(async () => expect(await mailStates([event!.id])).toEqual(['sent']));
      pastGathering();
      await deliver();
      expect(smtp.to(each.email).some((mail) => mail.text.includes('Mailed game'))).toBe(true);
    });

    it('an event no server decided (its hook lost) is mailed by a later round of the worker', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date());
      const actor = await createUser(t, RoleType.Admin);
      const each = await withSetting('each');
      await deliver();
      const id = await addEvent(each.id, actor.id, 'Lost hook');
      await deliver();
      expect(await mailStates([id])).toEqual([null]);
      vi.setSystemTime(Date.now() + 2 * 60_000);
      await deliver();
      expect(await mailStates([id])).toEqual(['sent']);
      pastGathering();
      await deliver();
      expect(smtp.to(each.email).some((mail) => mail.text.includes('Lost hook'))).toBe(true);
    });
  });
});

describe(`mail off (${testDb})`, () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp();
  });
  afterAll(async () => {
    await off?.close();
  });

  it('without SMTP_URL the app runs as before: config says so, forgot password answers 404 MAIL_OFF, nothing is queued', async () => {
    expect((await call(off, 'GET', '/api/config')).json()).toMatchObject({ mail: false });
    const user = await createUser(off);
    const forgot = await call(off, 'POST', '/api/user/forgot-password', { payload: { email: user.email } });
    expect(forgot.statusCode).toBe(404);
    expect(errorOf(forgot)).toMatchObject({ code: errorCodes.mailOff, message: mailMessages.mailOff });
    expect((await call(off, 'POST', '/api/user/verify-email/send', { token: user.token })).statusCode).toBe(
      404,
    );
    expect(await off.database.db.selectFrom('mailOutbox').selectAll().execute()).toEqual([]);
    expect(await off.database.db.selectFrom('userTokens').selectAll().execute()).toEqual([]);
  });
});

describe.runIf(testDb === 'postgres')('two servers on one outbox (PostgreSQL)', () => {
  it('two app instances working one outbox at once send each mail exactly once, and decide each inbox event and digest once', async () => {
    const second = await createTestApp(
      { mail: mailConfig() },
      { dataDir: t.config.dataDir, schema: t.schema },
    );
    try {
      await deliver();
      await deliver(second);
      const before = smtp.mails.length;
      const now = nowIso();
      const addresses = Array.from({ length: 30 }, (_, i) => `twin-${i}@example.com`);
      await t.database.db
        .insertInto('mailOutbox')
        .values(
          addresses.map((toAddress) => ({
            toAddress,
            subject: `Twin ${toAddress}`,
            text: 'Hello',
            html: '<p>Hello</p>',
            nextAttemptAt: now,
            createdAt: now,
          })),
        )
        .execute();
      const counts = await Promise.all([
        t.mail.tick(),
        second.mail.tick(),
        t.mail.tick(),
        second.mail.tick(),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      const received = smtp.mails.slice(before).map((mail) => mail.to);
      expect(received).toHaveLength(30);
      expect(new Set(received).size).toBe(30);
      expect(await outboxRows()).toEqual([]);

      // The same events offered to both servers at once (each), and both running the digest at once: once each.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-05-04T06:00:00.000Z'));
      const actor = await createUser(t, RoleType.Admin);
      const [each, daily] = [await verifiedUser(), await verifiedUser()];
      await call(t, 'PUT', '/api/user/mail-settings', {
        token: daily.token,
        payload: { inboxMail: 'digest' },
      });
      await deliver();
      const mark = smtp.mails.length;
      const ids: number[] = [];
      for (const [user, n] of [
        [each, 10],
        [daily, 5],
      ] as const) {
        for (let i = 0; i < n; i += 1) {
          const row = await t.database.db
            .insertInto('inboxEvents')
            .values({
              userId: user.id,
              kind: 'verdict',
              actorId: actor.id,
              versionId: 9,
              text: `Verdict ${i}`,
              createdAt: nowIso(),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(row.id);
        }
      }
      await Promise.all([
        t.mail.mailInboxEvents(ids),
        second.mail.mailInboxEvents(ids),
        t.mail.mailInboxEvents([...ids].reverse()),
      ]);
      // The sends these woke finish before the clock jumps hours ahead (past their claims).
      await Promise.all([deliver(), deliver(second)]);
      vi.setSystemTime(new Date('2026-05-04T08:30:00.000Z'));
      const digests = await Promise.all([
        t.mail.sendDigests(),
        second.mail.sendDigests(),
        t.mail.sendDigests(),
      ]);
      expect(digests.reduce((a, b) => a + b, 0)).toBe(1);
      await Promise.all([deliver(), deliver(second)]);
      const events = smtp.mails.slice(mark);
      // The ten events of one recipient within minutes are one mail (decision 0044), telling of each once.
      expect(events.filter((mail) => mail.to.includes(each.email)).map((mail) => mail.subject)).toEqual([
        '10 new events · Reskin Studio',
      ]);
      const told = events.find((mail) => mail.to.includes(each.email))!.text;
      for (let i = 0; i < 10; i += 1) expect(told.split(`"Verdict ${i}"`)).toHaveLength(2);
      expect(events.filter((mail) => mail.to.includes(daily.email))).toHaveLength(1);
      expect(events.find((mail) => mail.to.includes(daily.email))?.subject).toBe(
        'Your daily digest: 5 new events · Reskin Studio',
      );
    } finally {
      await second.close();
    }
  });
});
