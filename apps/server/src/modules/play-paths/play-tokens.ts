import { createHash } from 'node:crypto';
import { limits } from '@reskin/contract';
import { z } from 'zod';
import { HmacJwt } from '../../lib/jwt';

/** The views of a game on the play origin (DESIGN.md "Play"). */
export const playViews = ['original', 'skeleton', 'watermark', 'version'] as const;
export type PlayView = (typeof playViews)[number];

const claimsSchema = z.object({
  /** The game. */
  g: z.number().int().positive(),
  /** The version, for the version view. */
  v: z.number().int().positive().optional(),
  view: z.enum(playViews),
  /**
   * Set on a version view's link for someone who may see originals (`play.original`): its composed sprite sheets
   * are served drawn on the original; without it, on the watermarked copy (decision 0049). PlayAccess checks it.
   */
  o: z.literal(true).optional(),
  /** Who the link was made for. */
  u: z.number().int().positive(),
  /** The user's token version when it was made (decision 0013); PlayAccess refuses a link of another version. */
  tv: z.number().int().default(0),
  exp: z.number(),
});
export type PlayClaims = Omit<z.output<typeof claimsSchema>, 'exp'>;

const sharedClaimsSchema = z.object({
  g: z.number().int().positive(),
  u: z.number().int().positive(),
  tv: z.number().int(),
  exp: z.number(),
});
/** A shared link's claims (decision 0037): one user's files of one game that are the same in every view. */
export type SharedClaims = Omit<z.output<typeof sharedClaimsSchema>, 'exp'>;

/**
 * A shared link lives until the end of the period of this length it was made in, plus playTokenHours: between 2 and
 * 8 hours, and the same for every link made in one period, so a view's link signed again keeps its files' URLs.
 */
export const sharedPeriodMs = 6 * 3600_000;

/**
 * Capability tokens for the play origin: signed, naming the game (or version), the view, the user (and their token version) and a 2 h
 * expiry; PlayAccess checks on each request that the user still may see it. They travel in the URL path, so relative asset URLs inside the game inherit them. The key is derived
 * from the session secret but differs from it, so a play token is never a session token.
 */
export class PlayTokens {
  private readonly jwt: HmacJwt;
  /** Shared links: another key, so neither kind of token stands in for the other. */
  private readonly sharedJwt: HmacJwt;
  private readonly shared = new Map<string, string>();
  /** Verified play tokens' claims, the oldest first out (at most 10,000). */
  private readonly verified = new Map<string, { claims: PlayClaims; expiresAt: number }>();

  constructor(secret: string) {
    // The play origin checks the token of every file a game loads: many tokens, each verified once, then cached.
    this.jwt = new HmacJwt(
      createHash('sha256').update(`play-origin:${secret}`).digest(),
      limits.playTokenHours * 3600_000,
      { cacheSize: 10_000 },
    );
    this.sharedJwt = new HmacJwt(
      createHash('sha256').update(`play-origin-shared:${secret}`).digest(),
      undefined,
      { cacheSize: 10_000 },
    );
  }

  /**
   * The shared link of a user's game for the current period (decision 0037): the same token for every view and
   * every view link signed again within the period; PlayAccess still checks its user on every request.
   */
  signShared({ g, u, tv }: SharedClaims, now = Date.now()): string {
    const period = Math.floor(now / sharedPeriodMs);
    const key = `${u}:${tv}:${g}:${period}`;
    let token = this.shared.get(key);
    if (token === undefined) {
      const exp = Math.floor(this.sharedExpiresAt(now) / 1000);
      token = this.sharedJwt.sign({ g, u, tv, exp });
      if (this.shared.size >= 10_000) this.shared.clear();
      this.shared.set(key, token);
    }
    return token;
  }

  /** When a shared link signed at `now` expires (ms): the end of its period plus playTokenHours. */
  sharedExpiresAt(now = Date.now()): number {
    return (Math.floor(now / sharedPeriodMs) + 1) * sharedPeriodMs + limits.playTokenHours * 3600_000;
  }

  /** The claims of a valid shared link, or undefined. */
  verifyShared(token: string): SharedClaims | undefined {
    const parsed = sharedClaimsSchema.safeParse(this.sharedJwt.verify(token));
    if (!parsed.success) return undefined;
    const { exp: _exp, ...claims } = parsed.data;
    return claims;
  }

  /** Signs a link; `tv` (the user's token version) is 0 when left out. */
  async sign(claims: Omit<PlayClaims, 'tv'> & { tv?: number }): Promise<string> {
    return this.jwt.sign({ ...claims });
  }

  /**
   * The claims of a valid token and when it expires (ms), or undefined for a malformed, tampered or expired one. A
   * valid token's claims are kept until it expires (a game asks for hundreds of files with one token): no hash,
   * signature or parse again.
   */
  async verify(token: string): Promise<{ claims: PlayClaims; expiresAt: number } | undefined> {
    const kept = this.verified.get(token);
    if (kept !== undefined && kept.expiresAt > Date.now()) return kept;
    const parsed = claimsSchema.safeParse(this.jwt.verify(token));
    if (!parsed.success) return undefined;
    const { exp, ...claims } = parsed.data;
    const verified = { claims, expiresAt: exp * 1000 };
    if (this.verified.size >= 10_000) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, verified);
    return verified;
  }
}
