import { z } from 'zod';
import { gameVersionSchema } from './versions';

/**
 * The review loop (issue 28): a reviewer's verdict on a finished version, notes on a version or one of its files
 * (or an atlas frame), and the "To review" view. The server's routes and the web's screens both use these.
 */

export const verdicts = ['approved', 'changes_requested'] as const;
export type Verdict = (typeof verdicts)[number];
/** The words of each verdict, as every screen shows them. */
export const verdictLabels: Record<Verdict, string> = { approved: 'Approved', changes_requested: 'Changes requested' };

/** A version's review state, computed from its status, last finish and verdict. */
export const reviewStates = ['in_progress', 'to_review', 'approved', 'changes_requested'] as const;
export type ReviewState = (typeof reviewStates)[number];
export const reviewStateLabels: Record<ReviewState, string> = {
  in_progress: 'In progress',
  to_review: 'To review',
  approved: 'Approved',
  changes_requested: 'Changes requested',
};

export const noteTextMax = 2000;
const noteText = z.string().trim().min(1, { error: 'Write a note.' }).max(noteTextMax, { error: `A note has at most ${noteTextMax} characters.` });

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

/** A version's verdict fields (on every version answer; null until a verdict is given). */
export const versionReviewSchema = z.object({
  verdict: z.enum(verdicts).nullable(),
  verdictNote: z.string().nullable(),
  verdictAt: z.string().nullable(),
  verdictByName: z.string().nullable(),
  reviewState: z.enum(reviewStates),
  /** Open notes on the version (all its files included). */
  openNotes: z.number().int(),
});
export type VersionReview = z.infer<typeof versionReviewSchema>;

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
  /** The note this one answers (an answer resolves it), else null. */
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
export const updateNoteBodySchema = z.union([z.object({ resolved: z.boolean() }).strict(), z.object({ text: noteText }).strict()]);
export type UpdateNoteBody = z.infer<typeof updateNoteBodySchema>;
