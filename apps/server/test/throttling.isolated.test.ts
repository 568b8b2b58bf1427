import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as argon2 from '@node-rs/argon2';
import { deviceCookie, errorCodes, limits } from '@reskin/contract';
import { DeviceCookies } from '../src/modules/users/device-cookies';
import type { LightMyRequestResponse } from 'fastify';
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

// Counts the server's argon2 verifications (the real function runs).
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...original, verify: vi.fn(original.verify) };
});

const { freeFailures, firstDelaySeconds, maxDelaySeconds } = limits.failedAttempts;

/** Moves the clock the limits read (Date only: timers, the database and the server run as usual). */
function advanceClock(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

describe(`[API-1] failed attempts per account on ${testDb}`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const loginFrom = (address: string, email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': address },
    });

  it('[API-1] 30 wrong passwords for one account from 10 forwarded addresses are throttled; the right one then waits (429, never INVALID_CREDENTIALS), works once the delay passes, and a success clears the count', async () => {
    const user = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await loginFrom(`10.0.0.${i % 10}`, user.email, `wrong-password-${i}`);
      statuses.push(response.statusCode);
      if (response.statusCode === 401) expect(errorOf(response).code).toBe(errorCodes.invalidCredentials);
      else {
        expect(response.statusCode).toBe(429);
        expect(errorOf(response)).toMatchObject({
          statusCode: 429,
          name: 'TooManyRequestsError',
          code: errorCodes.rateLimited,
        });
      }
    }
    // The first free failures are checked; the next attempt already waits.
    expect(statuses.slice(0, freeFailures)).toEqual(Array(freeFailures).fill(401));
    expect(statuses[freeFailures]).toBe(429);
    expect(statuses.filter((s) => s === 401)).toHaveLength(freeFailures);

    // The right password, from yet another address, waits too instead of being told it is wrong.
    const waiting = await loginFrom('10.0.1.1', user.email, user.password);
    expect(waiting.statusCode).toBe(429);
    expect(errorOf(waiting).code).toBe(errorCodes.rateLimited);
    expect(errorOf(waiting).code).not.toBe(errorCodes.invalidCredentials);
    const retryAfter = Number(waiting.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(waiting.json<{ error: { retryAfter: number } }>().error.retryAfter).toBe(retryAfter);
    // An email written differently is the same account.
    expect((await loginFrom('10.0.1.2', ` ${user.email.toUpperCase()} `, user.password)).statusCode).toBe(
      429,
    );

    advanceClock(retryAfter);
    expect((await loginFrom('10.0.1.1', user.email, user.password)).statusCode).toBe(200);

    // The success cleared the count: the next wrong passwords are checked again.
    for (let i = 0; i < freeFailures; i++) {
      expect((await loginFrom('10.0.1.3', user.email, 'wrong-again')).statusCode).toBe(401);
    }
  });

  it('[API-1] the delay grows 1 s, 2 s, 4 s ... with each failure after the free ones, up to the cap', async () => {
    const user = await createUser(t);
    for (let i = 0; i < freeFailures; i++)
      expect((await login(t, user.email, 'wrong-password')).statusCode).toBe(401);
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const waiting = await login(t, user.email, 'wrong-password');
      expect(waiting.statusCode).toBe(429);
      delays.push(Number(waiting.headers['retry-after']));
      advanceClock(delays.at(-1)!);
      // After the delay the wrong password is checked (and counted) again.
      expect((await login(t, user.email, 'wrong-password')).statusCode).toBe(401);
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60].map((s) => Math.min(s, maxDelaySeconds)));
    // The owner outwaits the longest delay and logs in.
    advanceClock(maxDelaySeconds);
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);
  });

  it('[API-1] failures are counted per account: another account is not slowed down', async () => {
    const [victim, other] = [await createUser(t), await createUser(t)];
    for (let i = 0; i < freeFailures; i++) await login(t, victim.email, 'wrong-password');
    expect((await login(t, victim.email, victim.password)).statusCode).toBe(429);
    expect((await login(t, other.email, other.password)).statusCode).toBe(200);
  });

  it('[API-1] wrong current passwords of a password change are limited per user the same way (429, never a wrong password while limited)', async () => {
    const user: TestUser = await createUser(t);
    const change = (oldPassword: string) =>
      call(t, 'PUT', '/api/user/update/password', {
        token: user.token,
        payload: { oldPassword, newPassword: 'brand-new-pass-1' },
      });
    for (let i = 0; i < freeFailures; i++) {
      const wrong = await change(`not-my-password-${i}`);
      expect(wrong.statusCode).toBe(403);
      expect(errorOf(wrong).code).toBe(errorCodes.invalidCredentials);
    }
    const limited = await change('not-my-password-again');
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited).code).toBe(errorCodes.rateLimited);
    const waiting = await change(user.password);
    expect(waiting.statusCode).toBe(429);
    expect(errorOf(waiting).code).toBe(errorCodes.rateLimited);
    // The password did not change while limited.
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);

    advanceClock(Number(waiting.headers['retry-after']));
    const right = await change(user.password);
    expect(right.statusCode).toBe(200);
    expect((await login(t, user.email, 'brand-new-pass-1')).statusCode).toBe(200);
  });

  it('[API-1] an unknown email runs one argon2 verification like a known one (no enumeration by timing), and is throttled the same', async () => {
    const user = await createUser(t);
    const verify = vi.mocked(argon2.verify);

    verify.mockClear();
    expect((await login(t, 'nobody-here@example.com', 'some-password')).statusCode).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);

    verify.mockClear();
    expect((await login(t, user.email, 'some-password')).statusCode).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);

    // The same answer and the same delay for an unknown email as for a known one.
    for (let i = 1; i < freeFailures; i++) await login(t, 'nobody-here@example.com', 'some-password');
    expect((await login(t, 'nobody-here@example.com', 'some-password')).statusCode).toBe(429);
  });

  it('[ACC-3] a disabled account says ACCOUNT_DISABLED only after its right password (one verification either way)', async () => {
    const user = await createUser(t);
    expect((await call(t, 'DELETE', '/api/user/disable', { token: user.token })).statusCode).toBe(204);
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    const wrong = await login(t, user.email, 'wrong-password');
    expect(errorOf(wrong).code).toBe(errorCodes.invalidCredentials);
    expect(verify).toHaveBeenCalledTimes(1);
    const right = await login(t, user.email, user.password);
    expect(right.statusCode).toBe(401);
    expect(errorOf(right).code).toBe(errorCodes.accountDisabled);
  });
});

describe(`[API-1] device cookies: lock-out resistance on ${testDb}`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A login from an address, with a browser's device cookie when it has one. */
  const loginAs = (address: string, email: string, password: string, device?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email, password },
      headers: {
        'x-forwarded-for': address,
        ...(device ? { cookie: `${deviceCookie.name}=${device}` } : {}),
      },
    });
  const deviceOf = (response: LightMyRequestResponse) =>
    response.cookies.find((cookie) => cookie.name === deviceCookie.name);
  /**
   * Wrong passwords from one address, one each time the delay ends, until the next attempt (with `device`: of that
   * device cookie; else of any unknown browser) waits at least `seconds`; answers that delay. The limiter removes an
   * ended delay on a real timer, so the delays the checks see are several real seconds long.
   */
  async function failUntilDelay(
    address: string,
    email: string,
    seconds: number,
    device?: string,
  ): Promise<number> {
    for (let i = 0; i < freeFailures; i++)
      expect((await loginAs(address, email, `guess-${i}`, device)).statusCode).toBe(401);
    let delay: number = firstDelaySeconds;
    while (delay < seconds) {
      advanceClock(delay);
      expect((await loginAs(address, email, `guess-after-${delay}`, device)).statusCode).toBe(401);
      delay = Math.min(maxDelaySeconds, delay * 2);
    }
    return delay;
  }
  /** Logs in from a new browser (no cookie) and answers the device cookie it got. */
  async function knownDevice(user: TestUser): Promise<string> {
    const response = await loginAs('10.20.0.1', user.email, user.password);
    expect(response.statusCode).toBe(200);
    return deviceOf(response)!.value;
  }

  it('[API-1] a successful login sets a device cookie: HttpOnly, SameSite=Strict, for the login route only, long-lived, Secure behind https, new each time; a failed one sets none', async () => {
    const user = await createUser(t);
    const first = deviceOf(await loginAs('10.20.1.1', user.email, user.password));
    expect(first).toMatchObject({
      path: deviceCookie.path,
      httpOnly: true,
      sameSite: 'Strict',
      maxAge: limits.deviceCookieDays * 24 * 60 * 60,
    });
    expect(first!.secure).toBeFalsy();
    // Not the session token, and a new nonce at every login.
    const second = deviceOf(await loginAs('10.20.1.1', user.email, user.password, first!.value));
    expect(second!.value).not.toBe(first!.value);
    expect(second!.value.startsWith(`${user.id}.`)).toBe(true);
    const https = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: user.email, password: user.password },
      headers: { 'x-forwarded-for': '10.20.1.2', 'x-forwarded-proto': 'https' },
    });
    expect(deviceOf(https)!.secure).toBe(true);
    expect(deviceOf(await loginAs('10.20.1.1', user.email, 'wrong-password'))).toBeUndefined();
  });

  it('[API-1] with an attacker failing from one address each time Retry-After ends, the owner logging in from a known browser gets 200 every time; an unknown browser waits (429 with Retry-After) as before', async () => {
    const owner = await createUser(t);
    let device = await knownDevice(owner);
    const attacker = '10.66.6.6';
    await failUntilDelay(attacker, owner.email, 8);

    const owners: number[] = [];
    const attackers: number[] = [];
    for (let round = 0; round < 12; round++) {
      // The owner, on the browser they logged in with before: never slowed.
      const known = await loginAs('10.20.2.1', owner.email, owner.password, device);
      owners.push(known.statusCode);
      device = deviceOf(known)?.value ?? device;
      // The same right password from a browser without the cookie waits for the attacker's delay.
      const unknown = await loginAs('10.20.2.2', owner.email, owner.password);
      expect(unknown.statusCode).toBe(429);
      expect(errorOf(unknown).code).toBe(errorCodes.rateLimited);
      const retryAfter = Number(unknown.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(unknown.json<{ error: { retryAfter: number } }>().error.retryAfter).toBe(retryAfter);
      // The attacker guesses again as soon as the delay is over, and is checked (and counted) again.
      advanceClock(retryAfter);
      attackers.push((await loginAs(attacker, owner.email, `guess-again-${round}`)).statusCode);
    }
    expect(owners).toEqual(Array(12).fill(200));
    expect(attackers).toEqual(Array(12).fill(401));
  });

  it('[API-1] a known device has its own count: a stolen device cookie waits after the free failures (429 even with the right password), and neither another known browser nor unknown ones are slowed by it', async () => {
    const owner = await createUser(t);
    const stolen = await knownDevice(owner);
    const other = await knownDevice(owner);
    await failUntilDelay('10.77.0.1', owner.email, 8, stolen);
    const waiting = await loginAs('10.77.0.2', owner.email, owner.password, stolen);
    expect(waiting.statusCode).toBe(429);
    expect(errorOf(waiting).code).toBe(errorCodes.rateLimited);
    expect((await loginAs('10.20.3.1', owner.email, owner.password, other)).statusCode).toBe(200);
    expect((await loginAs('10.20.3.2', owner.email, owner.password)).statusCode).toBe(200);
    // A growing delay, not a lock: the right password works with it once the delay is over.
    advanceClock(Number(waiting.headers['retry-after']));
    expect((await loginAs('10.77.0.2', owner.email, owner.password, stolen)).statusCode).toBe(200);
  });

  it('[API-1] a device cookie counts only for its own account; an altered, forged or foreign one is an unknown device', async () => {
    const [owner, someoneElse] = [await createUser(t), await createUser(t)];
    const device = await knownDevice(owner);
    const foreign = await knownDevice(someoneElse);
    await failUntilDelay('10.88.0.1', owner.email, 8);

    const [, nonce, mac] = device.split('.');
    const flipped = mac!.at(-2) === 'A' ? 'B' : 'A';
    const unknownDevices = [
      foreign,
      `${owner.id}.${nonce}.${mac!.slice(0, -2)}${flipped}${mac!.at(-1)}`,
      `${someoneElse.id}.${nonce}.${mac}`,
      `0${device}`,
      new DeviceCookies('another-secret-0123456789abcdef').issue(owner.id),
      'not-a-device-cookie',
    ];
    for (const cookie of unknownDevices) {
      const response = await loginAs('10.20.4.1', owner.email, owner.password, cookie);
      expect(response.statusCode, cookie).toBe(429);
    }
    expect((await loginAs('10.20.4.1', owner.email, owner.password, device)).statusCode).toBe(200);
  });
});
