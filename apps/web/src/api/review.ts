import {
  errorCodes,
  limits,
  noteListSchema,
  noteSchema,
  reviewedVersionSchema,
  toReviewListSchema,
  type CreateNoteBody,
  type Note,
  type UpdateNoteBody,
  type VerdictBody,
} from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse } from '../lib/api-client';
import { inboxKeys } from './inbox';
import { useApiMutation } from './mutation';
import { userGameKeys } from './user-games';
import { filterVersions, versionKeys } from './versions';

/**
 * The review loop: verdicts, the "To review" list and notes on a version or its files. Under the
 * versions' key, so whatever reloads the versions (a finish, a lock) reloads these too.
 */
export const reviewKeys = {
  toReview: () => [...versionKeys.all, 'to-review'] as const,
  // Under the version's files: a replacement (which resolves the notes on its file) or a restore reloads them.
  notes: (versionId: number) => [...versionKeys.files(versionId), 'notes'] as const,
};

/** GET /game-versions/to-review (reviewers): finished versions without a verdict since their last finish, oldest first. */
export const listToReview = () => apiParse(toReviewListSchema, '/game-versions/to-review');

export interface VerdictInput {
  versionId: number;
  body: VerdictBody;
}

/**
 * PUT /game-versions/{versionId}/verdict. A verdict already given since the last finish is 409 `VERDICT_EXISTS`:
 * the toast says so (with who gave it, the server's reason) and the panel offers to replace it.
 */
export const giveVerdict = ({ versionId, body }: VerdictInput) =>
  apiParse(reviewedVersionSchema, `/game-versions/${versionId}/verdict`, {
    method: 'PUT',
    body,
    failureMessage: (failure) =>
      failure.code === errorCodes.verdictExists ? verdictExistsMessage : undefined,
  });

/** The toast's text over the server's reason (who gave the verdict there is). */
export const verdictExistsMessage = 'This version already has a verdict since it was last finished.';

/** A page of GET /notes: the most the server answers at once. */
const notesPage = limits.review.notesListMax;

/**
 * GET /game-versions/{versionId}/notes, page after page until a short one: every note of the version (its files'
 * and frames' too), oldest first, however many there are.
 */
export async function listNotes(versionId: number): Promise<Note[]> {
  const notes: Note[] = [];
  for (;;) {
    const after = notes.at(-1)?.id ?? 0;
    const page = await apiParse(
      noteListSchema,
      `/game-versions/${versionId}/notes?after=${after}&limit=${notesPage}`,
    );
    notes.push(...page);
    if (page.length < notesPage) return notes;
  }
}

/** POST /game-versions/{versionId}/notes: a note on the version, one of its files or a frame, or an answer. */
export const createNote = ({ versionId, body }: { versionId: number; body: CreateNoteBody }) =>
  apiParse(noteSchema, `/game-versions/${versionId}/notes`, { method: 'POST', body });

/** PATCH /api/notes/{noteId}: resolve or reopen, or a new text. */
export const updateNote = ({ noteId, body }: { noteId: number; versionId: number; body: UpdateNoteBody }) =>
  apiParse(noteSchema, `/notes/${noteId}`, { method: 'PATCH', body });

/** One version with its review fields, as the reviewer's screens show it (null when there is none). */
export const useReviewedVersion = (versionId: number | null, userGameId: number | null) =>
  useQuery({
    queryKey: [...versionKeys.lists(), 'one', versionId, userGameId],
    queryFn: async () =>
      (await filterVersions({ userGamesId: userGameId ?? 0, where: { id: versionId }, limit: 1 })).items[0] ??
      null,
    enabled: versionId !== null && userGameId !== null,
  });

export const useToReview = () => useQuery({ queryKey: reviewKeys.toReview(), queryFn: listToReview });

/**
 * A version's notes. A screen that shows them (the workbench, the review screen) asks for them when it opens; its
 * cards pass `fromScreen` and read what the screen has, so a card mounted while the list scrolls does not ask again
 * (a version of 2,000 notes was asked for once per card). Writing a note, or a new file, asks again (afterReview,
 * the files' key).
 */
export const useVersionNotes = (
  versionId: number | null,
  { fromScreen = false }: { fromScreen?: boolean } = {},
) =>
  useQuery({
    queryKey: reviewKeys.notes(versionId ?? 0),
    queryFn: () => listNotes(versionId ?? 0),
    enabled: versionId !== null,
    refetchOnMount: !fromScreen,
  });

// A verdict, a note or its state changes the versions (their review fields), the user-games' and My Games'
// counts and the caller's inbox.
const afterReview = (versionId: number) => [
  reviewKeys.notes(versionId),
  versionKeys.lists(),
  reviewKeys.toReview(),
  userGameKeys.all,
  inboxKeys.all,
];

export const useGiveVerdict = () =>
  useApiMutation([...versionKeys.all, 'verdict'], giveVerdict, ({ versionId }) => afterReview(versionId));
export const useCreateNote = () =>
  useApiMutation([...versionKeys.all, 'note', 'create'], createNote, ({ versionId }) =>
    afterReview(versionId),
  );
export const useUpdateNote = () =>
  useApiMutation([...versionKeys.all, 'note', 'update'], updateNote, ({ versionId }) =>
    afterReview(versionId),
  );
