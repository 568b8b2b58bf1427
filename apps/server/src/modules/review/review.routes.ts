import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createNoteBodySchema,
  noteIdParamSchema,
  noteListSchema,
  notesQuerySchema,
  noteSchema,
  reviewedVersionSchema,
  toReviewListSchema,
  updateNoteBodySchema,
  verdictBodySchema,
  versionIdParamSchema,
} from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import { revalidatedRoutes } from '../../plugins/revalidation';
import { sendPage } from '../../search/page';
import type { ReviewService } from './review.service';

const noteWriteErrors = {
  403: 'Demo accounts cannot write notes (FORBIDDEN).',
  404: "No such version, or not one you may see (someone else's: NOT_FOUND, decision 0007).",
  422: "A fileId that is no file of the version's game, a frame that is no frame of that file's atlas, or a replyTo that is no note of the version.",
  423: 'The version is locked (VERSION_LOCKED) or disabled (VERSION_DISABLED): read-only for its artist; reviewers still write notes.',
};

/** The review loop: verdicts, "To review" and notes. */
export async function reviewRoutes(app: FastifyInstance, { review }: { review: ReviewService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['review'];
  const user = { onRequest: app.requireUser };

  r.put(
    '/game-versions/:versionId/verdict',
    {
      ...user,
      schema: {
        tags,
        summary:
          "A reviewer's verdict on a Finished version (approved or changes requested, an optional note; lock: true locks an approved one)",
        params: versionIdParamSchema,
        body: verdictBodySchema,
        response: { 200: reviewedVersionSchema },
        errors: {
          403: 'Only reviewers give verdicts (FORBIDDEN).',
          404: 'No such version (NOT_FOUND).',
          409: 'The version is not Finished (VERSION_NOT_FINISHED), or has a verdict since its last finish (VERDICT_EXISTS, naming who gave it; send replace: true to change it).',
          422: 'lock: true with a verdict other than approved.',
        },
      },
    },
    async (request) => review.giveVerdict(currentUser(request), request.params.versionId, request.body),
  );

  r.get(
    '/game-versions/to-review',
    {
      ...user,
      schema: {
        tags,
        summary:
          'To review: Finished versions without a verdict since their last finish, the oldest finish first',
        response: { 200: toReviewListSchema },
        errors: { 403: 'Only reviewers (FORBIDDEN).' },
        paged: true,
      },
    },
    async (request, reply) => sendPage(reply, await review.toReview(currentUser(request))),
  );

  // Asked for whenever a workbench or review screen opens: revalidated (decision 0063).
  await revalidatedRoutes(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().get(
      '/game-versions/:versionId/notes',
      {
        ...user,
        schema: {
          tags,
          summary:
            "A page of a version's notes (on the version, its files and atlas frames), oldest first: ids above `after`, at most `limit` (1000)",
          params: versionIdParamSchema,
          querystring: notesQuerySchema,
          response: { 200: noteListSchema },
          errors: { 404: noteWriteErrors[404] },
        },
      },
      async (request) => review.listNotes(currentUser(request), request.params.versionId, request.query),
    );
  });

  r.post(
    '/game-versions/:versionId/notes',
    {
      ...user,
      schema: {
        tags,
        summary:
          "Write a note on a version, one of its files or an atlas frame, or answer one (replyTo: the artist's answer resolves it)",
        params: versionIdParamSchema,
        body: createNoteBodySchema,
        response: { 201: noteSchema },
        errors: {
          ...noteWriteErrors,
          429: 'Notes and answers too fast: a burst, then a few a minute per account (RATE_LIMITED, Retry-After, error.retryAfter; decision 0044).',
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await review.createNote(currentUser(request), request.params.versionId, request.body)),
  );

  r.patch(
    '/notes/:noteId',
    {
      ...user,
      schema: {
        tags,
        summary:
          "Resolve or reopen a note ({ resolved }: reviewers, the version's artist) or edit one's own ({ text })",
        params: noteIdParamSchema,
        body: updateNoteBodySchema,
        response: { 200: noteSchema },
        errors: {
          ...noteWriteErrors,
          403: "Demo accounts cannot write notes, and only its author edits a note's text (FORBIDDEN).",
          404: 'No such note, or one on a version you may not see (NOT_FOUND).',
        },
      },
    },
    async (request) => review.updateNote(currentUser(request), request.params.noteId, request.body),
  );
}
