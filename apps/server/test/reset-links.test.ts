import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleType, errorCodes, mailLimits, mailMessages } from '@reskin/contract';
import {
  call,
  createTestApp,
  createUser,
  errorOf,
  login,
  testDb,
  type TestApp,
  type TestUser,
} from './helpers';
import { linkToken, SmtpReceiver } from './support/smtp-receiver';

/**
 * Decision 0044: a password-reset link ends with the account's token version (as download links do, decision 0013),
 * against a real SMTP server on SQLite and PostgreSQL.
 */
const smtp = new SmtpReceiver();
let t: TestApp;
let admin: TestUser;

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
  });
  admin = await createUser(t, RoleType.Admin);
});

afterAll(async () => {
  await t?.close();
  await smtp.stop();
});

/** Asks for a reset link for the user and answers its token, as the mail brought it. */
async function resetLinkFor(user: TestUser): Promise<string> {
  expect(
    (await call(t, 'POST', '/api/user/forgot-password', { payload: { email: user.email } })).statusCode,
  ).toBe(202);
  await t.mail.settled();
  await t.mail.tick();
  const mail = smtp
    .to(user.email)
    .filter((received) => received.subject.startsWith('Reset your password'))
    .at(-1);
  expect(mail).toBeDefined();
  return linkToken(mail!);
}

const changes: [string, (user: TestUser) => Promise<{ statusCode: number; body: string }>][] = [
  [
    'changes their email',
    (user) =>
      call(t, 'PUT', '/api/user/update', {
        token: user.token,
        payload: {
          username: user.username,
          email: `moved_${user.username.toLowerCase()}@example.com`,
          currentPassword: user.password,
        },
      }),
  ],
  [
    'changes their password',
    (user) =>
      call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword: user.password, newPassword: 'N3w-password!' },
      }),
  ],
  [
    'has their password reset by an admin',
    (user) =>
      call(t, 'PUT', '/api/user/update/password', { token: admin.token, payload: { userId: user.id } }),
  ],
  ['suspends their account', (user) => call(t, 'DELETE', '/api/user/disable', { token: user.token })],
  [
    'is deleted by an admin',
    (user) => call(t, 'DELETE', `/api/user/delete/${user.id}`, { token: admin.token }),
  ],
];

describe(`decision 0044: a reset link ends when its account changes (${testDb})`, () => {
  it.each(changes)(
    'a reset link mailed before the account %s answers 400 TOKEN_INVALID and sets no password',
    async (_, change) => {
      const user = await createUser(t);
      const token = await resetLinkFor(user);
      const changed = await change(user);
      expect(changed.statusCode, changed.body).toBeLessThan(300);

      const used = await call(t, 'POST', '/api/user/reset-password', {
        payload: { token, password: 'Taken-over-pass-1' },
      });
      expect(used.statusCode, used.body).toBe(400);
      expect(errorOf(used)).toMatchObject({
        code: errorCodes.tokenInvalid,
        message: mailMessages.tokenInvalid,
      });
      const newEmail = `moved_${user.username.toLowerCase()}@example.com`;
      for (const email of [user.email, newEmail])
        expect((await login(t, email, 'Taken-over-pass-1')).statusCode).not.toBe(200);
    },
  );

  it('a reset link whose account changed nothing still sets the password', async () => {
    const user = await createUser(t);
    const token = await resetLinkFor(user);
    expect(
      (await call(t, 'POST', '/api/user/reset-password', { payload: { token, password: 'Fresh-pass-22' } }))
        .statusCode,
    ).toBe(204);
    expect((await login(t, user.email, 'Fresh-pass-22')).statusCode).toBe(200);
  });
});

describe.runIf(testDb === 'postgres')(
  'decision 0044: a reset link used while an admin resets the password (PostgreSQL)',
  () => {
    it("a link used at the same moment as an admin's reset never leaves the link's password working (10 rounds)", async () => {
      for (let round = 0; round < 10; round += 1) {
        // A new account each round: reset mails per account are few an hour.
        const user = await createUser(t);
        const token = await resetLinkFor(user);
        const linkPassword = `Link-pass-${round}-x`;
        const [byLink, byAdmin] = await Promise.all([
          call(t, 'POST', '/api/user/reset-password', { payload: { token, password: linkPassword } }),
          call(t, 'PUT', '/api/user/update/password', { token: admin.token, payload: { userId: user.id } }),
        ]);
        expect(byAdmin.statusCode, byAdmin.body).toBe(200);
        expect([204, 400], byLink.body).toContain(byLink.statusCode);
        // Whichever came first, the admin's reset is the last word.
        expect((await login(t, user.email, linkPassword)).statusCode).not.toBe(200);
        expect((await login(t, user.email, byAdmin.json<{ password: string }>().password)).statusCode).toBe(
          200,
        );
      }
    });
  },
);

describe(`decision 0044: forgot password counts by requester as well as address (${testDb})`, () => {
  const forgot = (email: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email }, remoteAddress });

  it("a stranger's five forgot-password requests for an address do not stop its owner's request from another IP being mailed", async () => {
    const owner = await createUser(t);
    await t.mail.settled();
    await t.mail.tick();
    const resets = () =>
      smtp.to(owner.email).filter((mail) => mail.subject.startsWith('Reset your password'));
    for (let i = 0; i < mailLimits.forgotPerAddressPerHour; i += 1)
      expect((await forgot(owner.email, '203.0.113.7')).statusCode).toBe(202);
    const refused = await forgot(owner.email, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe(errorCodes.rateLimited);
    await t.mail.settled();
    await t.mail.tick();
    const byStranger = resets().length;
    expect(byStranger).toBe(mailLimits.resetMailsPerRequesterPerHour);

    const own = await forgot(owner.email, '198.51.100.20');
    expect(own.statusCode).toBe(202);
    await t.mail.settled();
    await t.mail.tick();
    expect(resets()).toHaveLength(byStranger + 1);
    const token = linkToken(resets().at(-1)!);
    expect(
      (
        await call(t, 'POST', '/api/user/reset-password', {
          payload: { token, password: 'Owners-own-pass-3' },
        })
      ).statusCode,
    ).toBe(204);
  });
});
