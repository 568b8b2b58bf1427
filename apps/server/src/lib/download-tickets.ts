import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';

/** How long a download link stays valid: long enough to click, short enough not to matter if it leaks. */
export const downloadTicketMinutes = 15;

const claimsSchema = z.object({ u: z.number().int().positive(), r: z.string() });

/**
 * Short-lived signed tickets for downloads opened in a new window (DESIGN.md "Play"): scoped to one
 * resource (e.g. `helper-file:12`) and one user, carried in the query string, never the session token.
 */
export class DownloadTickets {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`download-ticket:${secret}`).digest();
  }

  sign(userId: number, resource: string): Promise<string> {
    return new SignJWT({ u: userId, r: resource })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(`${downloadTicketMinutes}m`)
      .sign(this.key);
  }

  /** The user id the ticket was issued to, when it is valid for exactly this resource. */
  async verify(ticket: string, resource: string): Promise<number | undefined> {
    try {
      const { payload } = await jwtVerify(ticket, this.key, { algorithms: ['HS256'] });
      const claims = claimsSchema.safeParse(payload);
      return claims.success && claims.data.r === resource ? claims.data.u : undefined;
    } catch {
      return undefined;
    }
  }
}
