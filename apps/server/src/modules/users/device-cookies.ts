import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { deviceCookie, limits } from '@reskin/contract';

/** A known device of an account: the account's id and the cookie's random nonce, which names its own failure count. */
export interface KnownDevice {
  userId: number;
  nonce: string;
}

const nonceBytes = 16;
/** base64url of 16 bytes, and of a SHA-256 HMAC. */
const nonceLength = 22;
const macLength = 43;

/**
 * OWASP's device cookies (decision 0021): after a successful login the browser gets
 * `<user id>.<nonce>.<HMAC of both>`, keyed by a key derived from the session secret (never the session key
 * itself). A login presenting a valid one for the account it logs into is from a known device: it is limited by a
 * count of that cookie's own instead of the account's, so failures from elsewhere do not slow its owner down, and
 * a stolen cookie still gets no more guesses than an unknown browser. Nothing is stored: the signature is the proof.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`device-cookie:${secret}`).digest();
  }

  /** A new cookie value for a browser that just logged into this account. */
  issue(userId: number): string {
    const body = `${userId}.${randomBytes(nonceBytes).toString('base64url')}`;
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The device a cookie value names when this server signed it; anything else (missing, malformed, altered, signed
   * with another secret) is no device. Whether it is a device of the account logging in is the caller's check.
   */
  read(value: string | undefined): KnownDevice | undefined {
    if (!value) return undefined;
    const parts = value.split('.');
    if (parts.length !== 3) return undefined;
    const [id, nonce, mac] = parts as [string, string, string];
    const userId = Number(id);
    // Digits only, as issue() writes them (no sign, no leading zero, no exponent).
    if (!Number.isSafeInteger(userId) || userId < 1 || String(userId) !== id) return undefined;
    if (nonce.length !== nonceLength || mac.length !== macLength) return undefined;
    const expected = Buffer.from(this.mac(`${id}.${nonce}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { userId, nonce };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/**
 * The cookie's attributes: only the login route receives it, never script (HttpOnly), never another site's request
 * (SameSite=Strict), only over TLS when the app is served over it, kept `limits.deviceCookieDays`.
 */
export function deviceCookieOptions(https: boolean): CookieSerializeOptions {
  return {
    path: deviceCookie.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: https,
    maxAge: limits.deviceCookieDays * 24 * 60 * 60,
  };
}
