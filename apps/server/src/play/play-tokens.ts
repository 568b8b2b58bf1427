import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { limits } from '@reskin/contract';
import { z } from 'zod';

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
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`play-origin:${secret}`).digest();
  }

  /** Signs a link; `tv` (the user's token version) is 0 when left out. */
  sign(claims: Omit<PlayClaims, 'tv'> & { tv?: number }): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(`${limits.playTokenHours}h`)
      .sign(this.key);
  }

  /** The claims of a valid token, or undefined for a malformed, tampered or expired one. */
  async verify(token: string): Promise<PlayClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const parsed = claimsSchema.safeParse(payload);
      if (!parsed.success) return undefined;
      const { exp: _exp, ...claims } = parsed.data;
      return claims;
    } catch {
      return undefined;
    }
  }
}
