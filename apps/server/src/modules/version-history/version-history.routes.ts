import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fileHistorySchema,
  historyEntryParamsSchema,
  idParamSchema,
  versionFileParamsSchema,
  versionFileSchema,
  versionStorageSchema,
} from '@reskin/contract';
import { revokedTicketDoc } from '../../lib/download-tickets';
import { currentUser } from '../../plugins/auth';
import type { VersionHistoryService } from './version-history.service';

export interface VersionHistoryRoutesOptions {
  history: VersionHistoryService;
}

/** The history of a version's files (decision 0034) and a version's storage use. */
export async function versionHistoryRoutes(app: FastifyInstance, { history }: VersionHistoryRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['game-versions'];
  const user = { onRequest: app.requireUser };

  r.get(
    '/game-versions/:versionId/files/:fileId/history',
    {
      ...user,
      schema: {
        tags,
        summary:
          "A version file's history: every replacement kept (up to VERSION_HISTORY_LIMIT), newest first, each with a ticketed URL to view it",
        params: versionFileParamsSchema,
        response: { 200: fileHistorySchema },
        errors: {
          404: 'No such version, not one of your active assignments, or no such file in its game (NOT_FOUND).',
        },
      },
    },
    async (request) => history.list(currentUser(request), request.params.versionId, request.params.fileId),
  );

  r.get(
    '/game-versions/:versionId/files/:fileId/history/:entryId/content',
    {
      schema: {
        tags,
        summary:
          "A history entry's image or sound (Authorization header, or the ?ticket= of the history's URLs)",
        // The bearer token or the ticket: without either, or with a bad one, the entry is a 404.
        security: [{ bearer: [] }, {}],
        params: historyEntryParamsSchema,
        querystring: z.object({ ticket: z.string().max(2000).optional() }),
        errors: {
          403: revokedTicketDoc,
          404: 'No such entry, version not yours, or no valid ticket (NOT_FOUND).',
        },
      },
    },
    async (request, reply) => {
      const caller = await history.contentCaller(
        request.user,
        request.params.versionId,
        request.query.ticket,
      );
      const { stream, contentType, size } = await history.content(
        caller,
        request.params.versionId,
        request.params.fileId,
        request.params.entryId,
      );
      return (
        reply
          .type(contentType)
          .header('Content-Length', size)
          .header('Cache-Control', 'private, max-age=900')
          .header('X-Content-Type-Options', 'nosniff')
          // An artist's SVG opened as a page runs nothing on the app's origin.
          .header(
            'Content-Security-Policy',
            "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
          )
          .send(stream)
      );
    },
  );

  r.post(
    '/game-versions/:versionId/files/:fileId/history/:entryId/restore',
    {
      ...user,
      schema: {
        tags,
        summary:
          "Restore a history entry: its bytes become the version's file again (through the upload), and the restore is a new entry",
        params: historyEntryParamsSchema,
        response: { 200: versionFileSchema },
        errors: {
          403: 'Demo accounts cannot create or change versions (FORBIDDEN).',
          404: 'No such version, not one of your active assignments, or no such entry of this file (NOT_FOUND).',
          422: "The entry no longer fits the game's file (its pixel size or kind changed since): the message says which.",
          423: 'The version is locked (VERSION_LOCKED) or disabled for its artist (VERSION_DISABLED).',
        },
      },
    },
    async (request) =>
      history.restore(
        currentUser(request),
        request.params.versionId,
        request.params.fileId,
        request.params.entryId,
      ),
  );

  r.get(
    '/game-versions/:id/storage',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "The bytes a version keeps in storage: its current files and its files' history (reviewers)",
        params: idParamSchema,
        response: { 200: versionStorageSchema },
        errors: { 404: 'No such version (NOT_FOUND).' },
      },
    },
    async (request) => history.storageUse(currentUser(request), request.params.id),
  );
}
