import { z } from 'zod';

/**
 * A version's review state, in a module of its own so that versions.ts (every version answer carries
 * these fields) and review.ts (the verdict and notes) both build on it without importing each other.
 */

export const verdicts = ['approved', 'changes_requested'] as const;
export type Verdict = (typeof verdicts)[number];
/** The words of each verdict, as every screen shows them. */
export const verdictLabels: Record<Verdict, string> = {
  approved: 'Approved',
  changes_requested: 'Changes requested',
};

/** A version's review state, computed from its status and verdict: in progress (not Finished), to review (Finished, no verdict yet), or its verdict. */
export const reviewStates = ['in_progress', 'to_review', 'approved', 'changes_requested'] as const;
export type ReviewState = (typeof reviewStates)[number];
export const reviewStateLabels: Record<ReviewState, string> = {
  in_progress: 'In progress',
  to_review: 'To review',
  approved: 'Approved',
  changes_requested: 'Changes requested',
};

/**
 * A version's verdict fields, on every version answer (gameVersionSchema). The verdict is the one given since the
 * version's last finish: null while none is (a new "I Finished My Game" clears the previous one, which the inbox
 * keeps; decision 0032), so `verdict` is set exactly when `reviewState` is `approved` or `changes_requested`.
 */
export const versionReviewSchema = z.object({
  verdict: z.enum(verdicts).nullable(),
  verdictNote: z.string().nullable(),
  verdictAt: z.string().nullable(),
  verdictByName: z.string().nullable(),
  reviewState: z.enum(reviewStates),
  /** Open notes on the version (all its files included): threads' first notes not resolved (answers are not counted). */
  openNotes: z.number().int(),
  /** Of `openNotes`, the threads its artist started (their questions, waiting for a reviewer; decision 0052). */
  openQuestions: z.number().int(),
});
export type VersionReview = z.infer<typeof versionReviewSchema>;

/**
 * The open notes waiting for the artist (decision 0052): every open thread but their own questions, which wait for a
 * reviewer. What the artist's screens count (My Games, the versions screen, the workbench); reviewers see `openNotes`.
 */
export function notesWaitingForArtist(counts: { openNotes: number; openQuestions: number }): number {
  return Math.max(0, counts.openNotes - counts.openQuestions);
}
