import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HmacJwt } from './jwt';

/** How long a download link stays valid: long enough to click, short enough not to matter if it leaks. */
export const downloadTicketMinutes = 15;

const claimsSchema = z.object({ u: z.number().int().positive(), r: z.string() });

/**
 * Short-lived signed tickets for downloads opened in a new window (DESIGN.md "Play"): scoped to one
 * resource (e.g. `helper-file:12`) and one user, carried in the query string, never the session token.
 */
export class DownloadTickets {
  private readonly jwt: HmacJwt;

  constructor(secret: string) {
    this.jwt = new HmacJwt(createHash('sha256').update(`download-ticket:${secret}`).digest(), downloadTicketMinutes * 60_000);
  }

  async sign(userId: number, resource: string): Promise<string> {
    return this.jwt.sign({ u: userId, r: resource });
  }

  /** The user id the ticket was issued to, when it is valid for exactly this resource. */
  async verify(ticket: string, resource: string): Promise<number | undefined> {
    const claims = claimsSchema.safeParse(this.jwt.verify(ticket));
    return claims.success && claims.data.r === resource ? claims.data.u : undefined;
  }
}
