import { z } from 'zod';
import { pathIdSchema } from './ids';

/**
 * The history of a version's file (decision 0034): every replacement of one game file in one version,
 * kept up to a limit per file (limits.versionHistory, VERSION_HISTORY_LIMIT), viewable and restorable. The server's
 * routes and the web's History dialog both use these.
 */

/** How an entry came: a single upload, a row of a batch, a sheet composed after a frame changed, a restore. */
export const historyHows = ['upload', 'batch', 'frame', 'restore'] as const;
export type HistoryHow = (typeof historyHows)[number];
/** The words of each kind, as the History dialog shows them. */
export const historyHowLabels: Record<HistoryHow, string> = {
  upload: 'Uploaded',
  batch: 'Batch replace',
  frame: 'Frame replaced',
  restore: 'Restored',
};

/** One entry of GET /api/game-versions/{versionId}/files/{fileId}/history. */
export const historyEntrySchema = z.object({
  id: z.number().int(),
  versionId: z.number().int(),
  fileId: z.number().int(),
  how: z.enum(historyHows),
  /** The entry this one restored (how `restore`), else null. */
  restoredFrom: z.number().int().nullable(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  contentType: z.string(),
  /** Who made it; null once that account is deleted. */
  authorId: z.number().int().nullable(),
  authorName: z.string().nullable(),
  createdAt: z.string(),
  /** True for the entry the version serves now (none while the version serves the original). */
  current: z.boolean(),
  /** Where to view the entry's image or sound: a ticketed URL (15 minutes) an <img> or <audio> can open. */
  url: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** GET .../history: the file's entries, newest first, and how many the server keeps. */
export const fileHistorySchema = z.object({
  versionId: z.number().int(),
  fileId: z.number().int(),
  path: z.string(),
  /** The most entries kept per file (VERSION_HISTORY_LIMIT); older ones are dropped. */
  limit: z.number().int(),
  entries: z.array(historyEntrySchema),
});
export type FileHistory = z.infer<typeof fileHistorySchema>;

/** .../history/{entryId}/restore and .../history/{entryId}/content. */
export const historyEntryParamsSchema = z.object({
  versionId: pathIdSchema,
  fileId: pathIdSchema,
  entryId: pathIdSchema,
});

/** GET /api/game-versions/{id}/storage (reviewers): the bytes a version keeps in storage. */
export const versionStorageSchema = z.object({
  versionId: z.number().int(),
  /** Its current replaced files (composed sheets included). */
  currentBytes: z.number().int(),
  /** Its files' history entries (each a copy of its own). */
  historyBytes: z.number().int(),
  historyEntries: z.number().int(),
  /** currentBytes + historyBytes (a sheet's replaced frames and whole-sheet upload included in current). */
  storageBytes: z.number().int(),
});
export type VersionStorage = z.infer<typeof versionStorageSchema>;

/** The texts of the history (one place for the server's answers and the web's dialog). */
export const historyMessages = {
  /** 422 on a restore whose entry no longer fits the game's file. */
  sizeChanged: (
    entry: { width: number | null; height: number | null },
    original: { width: number | null; height: number | null },
  ) =>
    `This entry is ${entry.width ?? '?'} x ${entry.height ?? '?'} px but the game's file is now ${original.width ?? '?'} x ${original.height ?? '?'} px: it can no longer be restored. Upload an image of the new size instead.`,
  /** 422 on a restore whose entry is no longer the kind of the game's file (an image for a sound or the other way). */
  kindChanged: "The game's file is no longer of this entry's kind: it can no longer be restored.",
  restored: (path: string) => `Restored an earlier ${path}.`,
  confirmRestore:
    "Restore this entry? It becomes the version's file again, and the restore is itself added to the history.",
  empty: 'No replacements yet: each upload of this file is listed here.',
  /** Why the history offers no restore (the version is locked or disabled, or the account a demo): the refusal's words. */
  noRestore: (reason: string) => `Earlier entries cannot be restored now. ${reason}`,
} as const;
