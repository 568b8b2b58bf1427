import { createHash } from 'node:crypto';
import type { User } from '@reskin/contract';
import { z } from 'zod';
import { forbidden } from './errors';
import { HmacJwt } from './jwt';

/** How long a download link stays valid: long enough to click, short enough not to matter if it leaks. */
export const downloadTicketMinutes = 15;

const claimsSchema = z.object({
  u: z.number().int().positive(),
  r: z.string(),
  /** The user's token version when the ticket was made (decision 0013); refused once it changes. */
  tv: z.number().int().default(0),
});

/** Where tickets learn a user's token version. */
export interface TicketHolders {
  /** The version to sign a ticket with: the one the caller's session was checked against. */
  tokenVersionOf(userId: number): Promise<number>;
  /** The user and their version as the database holds them now (read anew for every download, never kept). */
  current(userId: number): Promise<{ user: User; tokenVersion: number } | undefined>;
}

/** The 403 of a ticket whose user has since been revoked: another token version, suspended, or deleted. */
export const revokedTicket = () =>
  forbidden(
    'This download link has ended (the account was changed since it was made); open the download again.',
  );

/** A ticketed download's 403, for the OpenAPI document. */
export const revokedTicketDoc =
  "The ticket's user has since changed their password or email, been reset, re-roled, suspended or deleted (FORBIDDEN).";

/**
 * Short-lived signed tickets for downloads opened in a new window (DESIGN.md "Play"): scoped to one
 * resource (e.g. `helper-file:12`) and one user at one token version, carried in the query string, never the
 * session token. A password change, an admin's reset, a role change, a suspension or an email change (each a new
 * token version, decision 0013) ends the user's tickets at once on every server, like their sessions.
 */
export class DownloadTickets {
  private readonly jwt: HmacJwt;

  constructor(
    secret: string,
    private readonly holders: TicketHolders,
  ) {
    this.jwt = new HmacJwt(
      createHash('sha256').update(`download-ticket:${secret}`).digest(),
      downloadTicketMinutes * 60_000,
    );
  }

  async sign(userId: number, resource: string): Promise<string> {
    return this.jwt.sign({ u: userId, r: resource, tv: await this.holders.tokenVersionOf(userId) });
  }

  /**
   * The user a ticket for exactly this resource was made for: undefined for a malformed, forged, expired or
   * other resource's ticket (the caller answers 404, as without a ticket); 403 (revokedTicket) when its user no
   * longer exists, is suspended, or has another token version than the ticket.
   */
  async holder(ticket: string, resource: string): Promise<User | undefined> {
    const claims = claimsSchema.safeParse(this.jwt.verify(ticket));
    if (!claims.success || claims.data.r !== resource) return undefined;
    const found = await this.holders.current(claims.data.u);
    if (!found || !found.user.activated || found.tokenVersion !== claims.data.tv) throw revokedTicket();
    return found.user;
  }
}
