import { z } from 'zod';
import { pathIdSchema } from './ids';

/**
 * The inbox: what happened that concerns you. One row per event and recipient; the ids say which
 * screen it links to. The same kinds are mailed when mail is on (each event, a daily digest, or never).
 */
export const inboxEventKinds = [
  /** A game was assigned to you (userGameId, gameId). */
  'game_assigned',
  /** An artist finished a version (to admins: versionId, gameId, userGameId). */
  'version_finished',
  /** A reviewer gave your version a verdict (versionId; text: the verdict and its note). */
  'verdict',
  /** Someone wrote a note on your version (versionId, fileId when on a file, noteId). */
  'note',
  /** The artist answered (or resolved) a note you wrote (versionId, noteId). */
  'note_answered',
  /** A game's generation failed (to every active administrator: gameId; text: the reason in words, decision 0052). */
  'generation_failed',
] as const;
export type InboxEventKind = (typeof inboxEventKinds)[number];

export const inboxEventSchema = z.object({
  id: z.number().int(),
  kind: z.enum(inboxEventKinds),
  /** Who caused it (null for the system), and their username. */
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  gameId: z.number().int().nullable(),
  gameName: z.string().nullable(),
  userGameId: z.number().int().nullable(),
  versionId: z.number().int().nullable(),
  fileId: z.number().int().nullable(),
  noteId: z.number().int().nullable(),
  text: z.string(),
  /**
   * Whose version the event is about, as the reader sees it (decision 0052): `yours` when the reader is its artist,
   * `others` when it is someone else's (a reviewer told of an artist's own note), null when the event names no
   * version or it is gone. `versionOwnerName` is that artist's username (null when the event names no version).
   */
  versionOwner: z.enum(['yours', 'others']).nullable(),
  versionOwnerName: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type InboxEvent = z.infer<typeof inboxEventSchema>;

/** The fields of an inbox event its wording reads (the web's inbox and the mails say it alike). */
export type InboxEventFacts = Pick<InboxEvent, 'kind' | 'actorName' | 'gameName' | 'fileId'> &
  Partial<Pick<InboxEvent, 'versionOwner' | 'versionOwnerName'>>;

/**
 * One inbox event in words (decision 0032): who did what on which game, in one place for the inbox and the mails. A
 * version is "your version" only for its artist; anyone else reads whose it is (decision 0052). The event's own
 * `text` (a verdict and its note, a note's words, a failure's reason) is not part of it.
 */
export function inboxEventSentence(event: InboxEventFacts): string {
  const who = event.actorName ?? 'Someone';
  const game = event.gameName ?? 'a game';
  const whose =
    event.versionOwner === 'others'
      ? event.versionOwnerName !== null &&
        event.versionOwnerName !== undefined &&
        event.versionOwnerName === event.actorName
        ? 'their version'
        : `${event.versionOwnerName ?? 'an artist'}'s version`
      : 'your version';
  switch (event.kind) {
    case 'game_assigned':
      return `${who} assigned you ${game}.`;
    case 'version_finished':
      return `${who} finished a version of ${game}.`;
    case 'verdict':
      return `${who} reviewed ${whose} of ${game}.`;
    case 'note':
      return event.fileId === null
        ? `${who} wrote a note on ${whose} of ${game}.`
        : `${who} wrote a note on a file of ${whose} of ${game}.`;
    case 'note_answered':
      return `${who} answered your note on ${game}.`;
    case 'generation_failed':
      return `${game} could not be generated.`;
  }
}

/** GET /api/inbox: the newest events first (a page of `limits.inbox.pageSize`) and the unread count. */
export const inboxSchema = z.object({ unread: z.number().int(), events: z.array(inboxEventSchema) });
export type Inbox = z.infer<typeof inboxSchema>;

/** POST /api/inbox/read: mark the given events read, or all of one's events with `{ all: true }`. */
export const inboxReadBodySchema = z.union([
  z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type InboxReadBody = z.infer<typeof inboxReadBodySchema>;

/** The answer of POST /api/inbox/read: how many of one's events are unread now. */
export const inboxUnreadSchema = z.object({ unread: z.number().int() });
export type InboxUnread = z.infer<typeof inboxUnreadSchema>;

/** GET /api/inbox?before=<id>: the page of events older than that event (the next page). */
export const inboxQuerySchema = z.object({ before: pathIdSchema.optional() });
