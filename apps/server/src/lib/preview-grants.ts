import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { previewKey, type PreviewSize } from './images/image-previews';

const dayMs = 24 * 3600_000;

/**
 * A grant ends at the end of the UTC day after the one it was made on: every URL made on one day is the same (so
 * browsers keep the image a whole day), and valid for one to two days (decision 0038).
 */
export const previewGrantDays = 2;

/** What a preview grant names: a user at a token version, one stored preview, and when it ends. */
export interface PreviewClaims {
  userId: number;
  tokenVersion: number;
  /** The preview's storage key (image-previews.ts previewKey). */
  key: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** The URL path segment a grant's size is served under. */
export const previewNames: Record<PreviewSize, string> = { preview: 'preview.webp', thumb: 'thumb.webp' };

/**
 * Signed capabilities for preview images (decision 0038): `<img>` sends no Authorization header, so the URL itself
 * says who may see which preview until when, as a download ticket does. An HMAC over the claims, not a JWT: a page
 * of 1,500 images signs 4,500 of them, and the same claims always give the same URL.
 */
export class PreviewGrants {
  private readonly key: Buffer;
  /**
   * Grants made, by their payload: the same claims give the same grant all day, so a list answered again (My Games on
   * every visit, a workbench reloaded) signs nothing (an HMAC per card on every answer).
   */
  private readonly signed = new LRUCache<string, string>({ max: 20_000 });

  constructor(secret: string) {
    this.key = createHash('sha256').update(`image-preview:${secret}`).digest();
  }

  /** When a grant made at `now` ends (previewGrantDays). */
  static expiryFor(now: number): number {
    return (Math.floor(now / dayMs) + previewGrantDays) * dayMs;
  }

  /** The grant for a claim: `<payload>.<signature>`, both base64url. */
  sign(claims: PreviewClaims): string {
    const text = `${claims.userId}:${claims.tokenVersion}:${claims.expiresAt / 1000}:${claims.key}`;
    let grant = this.signed.get(text);
    if (grant === undefined) {
      const payload = Buffer.from(text).toString('base64url');
      grant = `${payload}.${this.signature(payload)}`;
      this.signed.set(text, grant);
    }
    return grant;
  }

  /** The claims of a genuine grant that has not ended; undefined for a malformed, forged or expired one. */
  verify(grant: string, now = Date.now()): PreviewClaims | undefined {
    const dot = grant.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const payload = grant.slice(0, dot);
    const given = Buffer.from(grant.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.signature(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const match = /^(\d+):(\d+):(\d+):(.+)$/s.exec(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!match) return undefined;
    const claims = {
      userId: Number(match[1]),
      tokenVersion: Number(match[2]),
      expiresAt: Number(match[3]) * 1000,
      key: match[4]!,
    };
    return claims.expiresAt > now ? claims : undefined;
  }

  /**
   * The URL maker for one answer to one user (their token version read once by the caller): the app-origin path of
   * the preview of `sourceKey` at `size`.
   */
  urlsFor(userId: number, tokenVersion: number, now = Date.now()): PreviewUrl {
    const expiresAt = PreviewGrants.expiryFor(now);
    return (sourceKey, size) =>
      `/api/previews/${this.sign({ userId, tokenVersion, key: previewKey(sourceKey, size), expiresAt })}/${previewNames[size]}`;
  }

  /** 128 bits of HMAC-SHA256, base64url. */
  private signature(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, 16).toString('base64url');
  }
}

/** The URL of the preview of a stored object (PreviewGrants.urlsFor). */
export type PreviewUrl = (sourceKey: string, size: PreviewSize) => string;
