import { limits, tokenUserSchema, type TokenUser } from '@reskin/contract';
import { z } from 'zod';
import { HmacJwt } from '../../lib/jwt';

/** `tv`: the user's token version when it was signed (a token from before migration 0003 has none: 0). */
const sessionPayloadSchema = z.object({
  user: tokenUserSchema,
  tv: z.number().int().default(0),
  exp: z.number(),
});

/** A valid session token's user and the token version it was signed with. */
export interface SessionClaims {
  user: TokenUser;
  tokenVersion: number;
}

/**
 * Signs and checks session tokens: HS256 JWT `{ user: { id, username, email, roleTypeId }, tv, exp }`, 12 h.
 * `tv` is the user's token version (decision 0013): the auth plugin refuses a token whose version is not the
 * user's current one.
 */
export class SessionTokens {
  private readonly jwt: HmacJwt;

  /** Each verified payload's claims (null: not a session's), for as long as the verifier keeps the payload. */
  private readonly checked = new WeakMap<object, SessionClaims | null>();

  constructor(secret: string) {
    this.jwt = new HmacJwt(secret, limits.sessionTokenHours * 3600_000);
  }

  async sign(user: TokenUser, tokenVersion: number): Promise<string> {
    const claims: TokenUser = {
      id: user.id,
      username: user.username,
      email: user.email,
      roleTypeId: user.roleTypeId,
    };
    return this.jwt.sign({ user: claims, tv: tokenVersion });
  }

  /** The token's user and version, or undefined for a token that is malformed, tampered with or expired. */
  async verify(token: string): Promise<SessionClaims | undefined> {
    const payload = this.jwt.verify(token);
    if (typeof payload !== 'object' || payload === null) return undefined;
    // A cached token's payload is the same object on every request (fast-jwt's cache): it is checked once.
    const known = this.checked.get(payload);
    if (known !== undefined) return known ?? undefined;
    const parsed = sessionPayloadSchema.safeParse(payload);
    const claims = parsed.success ? { user: parsed.data.user, tokenVersion: parsed.data.tv } : null;
    this.checked.set(payload, claims);
    return claims ?? undefined;
  }
}
