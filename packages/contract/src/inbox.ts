import { z } from 'zod';
import { pathIdSchema } from './ids';

/**
 * The inbox (issue 28): what happened that concerns you. One row per event and recipient; the ids say which
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
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type InboxEvent = z.infer<typeof inboxEventSchema>;

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
