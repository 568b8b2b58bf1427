import { SignJWT, jwtVerify } from 'jose';
import { limits, tokenUserSchema, type TokenUser } from '@reskin/contract';
import { z } from 'zod';

const sessionPayloadSchema = z.object({ user: tokenUserSchema, exp: z.number() });

/** Signs and checks session tokens: HS256 JWT `{ user: { id, username, email, roleTypeId }, exp }`, 12 h. */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(user: TokenUser): Promise<string> {
    const claims: TokenUser = { id: user.id, username: user.username, email: user.email, roleTypeId: user.roleTypeId };
    return new SignJWT({ user: claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${limits.sessionTokenHours}h`)
      .sign(this.key);
  }

  /** The token's user, or undefined for a token that is malformed, tampered with or expired. */
  async verify(token: string): Promise<TokenUser | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const parsed = sessionPayloadSchema.safeParse(payload);
      return parsed.success ? parsed.data.user : undefined;
    } catch {
      return undefined;
    }
  }
}
