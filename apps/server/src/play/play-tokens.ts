import { createHash } from 'node:crypto';
import { limits } from '@reskin/contract';
import { z } from 'zod';
import { HmacJwt } from '../lib/jwt';

/** The views of a game on the play origin (DESIGN.md "Play"). */
export const playViews = ['original', 'skeleton', 'watermark', 'version'] as const;
export type PlayView = (typeof playViews)[number];

const claimsSchema = z.object({
  /** The game. */
  g: z.number().int().positive(),
  /** The version, for the version view. */
  v: z.number().int().positive().optional(),
  view: z.enum(playViews),
  /** Who the link was made for. */
  u: z.number().int().positive(),
  /** The user's token version when it was made (decision 0013); PlayAccess refuses a link of another version. */
  tv: z.number().int().default(0),
  exp: z.number(),
});
export type PlayClaims = Omit<z.output<typeof claimsSchema>, 'exp'>;

/**
 * Capability tokens for the play origin: signed, naming the game (or version), the view, the user (and their token version) and a 2 h
 * expiry; PlayAccess checks on each request that the user still may see it. They travel in the URL path, so relative asset URLs inside the game inherit them. The key is derived
 * from the session secret but differs from it, so a play token is never a session token.
 */
export class PlayTokens {
  private readonly jwt: HmacJwt;

  constructor(secret: string) {
    // The play origin checks the token of every file a game loads: many tokens, each verified once, then cached.
    this.jwt = new HmacJwt(createHash('sha256').update(`play-origin:${secret}`).digest(), limits.playTokenHours * 3600_000, { cacheSize: 10_000 });
  }

  /** Signs a link; `tv` (the user's token version) is 0 when left out. */
  async sign(claims: Omit<PlayClaims, 'tv'> & { tv?: number }): Promise<string> {
    return this.jwt.sign({ ...claims });
  }

  /** The claims of a valid token, or undefined for a malformed, tampered or expired one. */
  async verify(token: string): Promise<PlayClaims | undefined> {
    const parsed = claimsSchema.safeParse(this.jwt.verify(token));
    if (!parsed.success) return undefined;
    const { exp: _exp, ...claims } = parsed.data;
    return claims;
  }
}
