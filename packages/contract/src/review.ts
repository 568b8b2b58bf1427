import { z } from 'zod';
import { pathIdSchema } from './ids';
import { limits } from './limits';
import { gameVersionSchema } from './versions';
import { verdictLabels, verdicts, versionReviewSchema, type Verdict } from './review-state';

// The verdict names, review states and a version's review fields are in review-state.ts (versions.ts builds every
// version answer with them); they are exported from here too.
export * from './review-state';

/**
 * The review loop: a reviewer's verdict on a finished version, notes on a version or one of its files
 * (or an atlas frame), and the "To review" view. The server's routes and the web's screens both use these.
 */

export const noteTextMax = 2000;
const noteText = z
  .string()
  .trim()
  .min(1, { error: 'Write a note.' })
  .max(noteTextMax, { error: `A note has at most ${noteTextMax} characters.` });

/**
 * PUT /api/game-versions/{versionId}/verdict (reviewers: `versions.review`). Only on a Finished version. `lock`
 * locks it in the same step (approved only). A verdict already given since the version's last finish is 409
 * `VERDICT_EXISTS` (naming who gave it) unless `replace: true`: of two reviewers at once, one wins and the other
 * is told.
 */
export const verdictBodySchema = z
  .object({
    verdict: z.enum(verdicts),
    note: noteText.optional(),
    lock: z.boolean().optional(),
    replace: z.boolean().optional(),
  })
  .strict();
export type VerdictBody = z.infer<typeof verdictBodySchema>;

/** The answer of PUT .../verdict and one row of GET /api/game-versions/to-review. */
export const reviewedVersionSchema = gameVersionSchema.extend(versionReviewSchema.shape).extend({
  username: z.string(),
  gameName: z.string(),
});
export type ReviewedVersion = z.infer<typeof reviewedVersionSchema>;
/** GET /api/game-versions/to-review (reviewers): finished versions without a verdict since their last finish, oldest finish first. */
export const toReviewListSchema = z.array(reviewedVersionSchema);

/** A note on a version, on one of its files (`fileId`: the game file's id) or on an atlas frame of that file. */
export const noteSchema = z.object({
  id: z.number().int(),
  versionId: z.number().int(),
  fileId: z.number().int().nullable(),
  /** The file's game path (null on a version-wide note). */
  path: z.string().nullable(),
  frame: z.string().nullable(),
  /**
   * The thread's first note this one answers, else null. Threads are one level deep (an answer to an answer is
   * stored as an answer to the thread's first note). An answer from the other side resolves that note: the
   * artist's to a reviewer's note, a reviewer's to the artist's own. Only first notes count as open or resolved.
   */
  replyTo: z.number().int().nullable(),
  authorId: z.number().int(),
  authorName: z.string(),
  text: z.string(),
  resolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  /** Why it was resolved: by a person (`marked`), an answer (`answered`) or a replacement of its file (`replaced`). */
  resolvedHow: z.enum(['marked', 'answered', 'replaced']).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Note = z.infer<typeof noteSchema>;
export const noteListSchema = z.array(noteSchema);

/**
 * GET /api/game-versions/{versionId}/notes?after=&limit=: a page of the version's notes, oldest first: those whose id
 * is above `after`, at most `limit` (limits.review.notesListMax, the default too). A page shorter than its limit is the
 * last; the next page starts after the last note's id.
 */
export const notesQuerySchema = z.object({
  after: z.coerce
    .number({ error: 'expected a note id' })
    .int({ error: 'expected a note id' })
    .min(0, { error: 'expected a note id' })
    .optional(),
  limit: z.coerce
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(1, { error: 'expected a number above 0' })
    .max(limits.review.notesListMax, { error: `expected at most ${limits.review.notesListMax}` })
    .optional(),
});
export type NotesQuery = z.infer<typeof notesQuerySchema>;

/** POST /api/game-versions/{versionId}/notes (a reviewer, or the version's artist; never demo). */
export const createNoteBodySchema = z
  .object({
    text: noteText,
    fileId: z.number().int().positive().optional(),
    frame: z.string().min(1).max(500).optional(),
    replyTo: z.number().int().positive().optional(),
  })
  .strict();
export type CreateNoteBody = z.infer<typeof createNoteBodySchema>;

/** PATCH /api/notes/{noteId}: resolve or reopen (reviewers, the version's artist), or edit one's own text. */
export const updateNoteBodySchema = z.union([
  z.object({ resolved: z.boolean() }).strict(),
  z.object({ text: noteText }).strict(),
]);
export type UpdateNoteBody = z.infer<typeof updateNoteBodySchema>;

/** What the review loop's refusals say (the server's error messages; the web shows the same words). */
export const reviewMessages = {
  notReviewer: 'Only reviewers give verdicts.',
  notFinished:
    'This version is not finished: a verdict is given once its artist has pressed "I Finished My Game".',
  verdictExists: (who: string, verdict: Verdict) =>
    `${who} has already given this version a verdict (${verdictLabels[verdict]}) since its last finish. Reload to see it, or replace it.`,
  lockNeedsApproval: 'Only an approved version can be locked in the same step.',
  demoNotes: 'Demo accounts cannot write notes.',
  notAuthor: 'Only its author can edit a note.',
  fileNotInGame: "This file is not one of the version's game files.",
  frameNeedsFile: 'A frame is named together with its file (fileId).',
  frameNotInFile: (path: string) => `This frame is not a frame of ${path}.`,
  replyNotOnVersion: 'The note answered is not a note of this version.',
  replyOtherFile: 'An answer is on the same file as the note it answers.',
} as const;

/** The path parameters of the version's review routes and of PATCH /api/notes/{noteId}. */
export const versionIdParamSchema = z.object({ versionId: pathIdSchema });
export const noteIdParamSchema = z.object({ noteId: pathIdSchema });
