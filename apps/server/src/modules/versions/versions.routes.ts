import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createVersionBodySchema,
  filePageQuerySchema,
  gamePathSchema,
  gameVersionListSchema,
  gameVersionSchema,
  idParamSchema,
  listVersionsParamsSchema,
  messageResponseSchema,
  noContentSchema,
  updateVersionBodySchema,
  versionDoneBodySchema,
  versionFileListSchema,
  versionFileSchema,
  versionFilterBodySchema,
  versionParamsSchema,
  versionFileParamsSchema,
  versionUploadPartsSchema,
} from '@reskin/contract';
import { revokedTicketDoc } from '../../lib/download-tickets';
import { currentUser } from '../../plugins/auth';
import { revalidatedRoutes } from '../../plugins/revalidation';
import { sendPage } from '../../search/page';
import { fileTooLarge, readUpload, maxMultipartBytes, refuseDeclaredBodyOver } from '../../lib/multipart';
import type { VersionIntake } from './intake/version-intake';
import type { VersionsService } from './versions.service';

const noContent = { 204: noContentSchema };

/** The refusals of a change to a version (versionChangeRefusal in the contract), for the OpenAPI document. */
const changeErrors = {
  403: 'Demo accounts cannot create or change versions (FORBIDDEN).',
  404: 'No such version, or not one of your active assignments (NOT_FOUND).',
  423: 'The version is locked (VERSION_LOCKED: nothing of it changes for its artist, its files for nobody) or disabled (VERSION_DISABLED: read-only for its artist).',
};

export interface VersionsRoutesOptions {
  versions: VersionsService;
  /** Where a version's file comes in (decision 0055). */
  intake: VersionIntake;
  maxFileSizeBytes: number;
}

/** SPEC §7 "Game versions" and POST /game-version/upload/{versionId}/{fileId}. */
export async function versionsRoutes(
  app: FastifyInstance,
  { versions, intake, maxFileSizeBytes }: VersionsRoutesOptions,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['game-versions'];
  const user = { onRequest: app.requireUser };
  const admin = { onRequest: app.requireAdmin };

  r.post(
    '/game-versions/filter',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Versions by user, game or user-game (plus where, order, limit, skip of the search query)',
        body: versionFilterBodySchema,
        response: { 200: gameVersionListSchema },
        paged: true,
      },
    },
    async (request, reply) => sendPage(reply, await versions.filter(request.body)),
  );

  r.post(
    '/game-versions/done',
    {
      ...user,
      schema: {
        tags,
        summary: 'I Finished My Game: status Finished',
        body: versionDoneBodySchema,
        response: { 200: gameVersionSchema },
        errors: {
          ...changeErrors,
          429: 'Finished too often: a burst, then a few a minute per account (RATE_LIMITED, Retry-After, error.retryAfter; decision 0044).',
        },
      },
    },
    async (request) => versions.done(currentUser(request), request.body.id),
  );

  r.get(
    '/game-versions/path/:id/:gameId',
    {
      ...user,
      schema: {
        tags,
        summary: "A version's play URLs",
        params: versionParamsSchema,
        response: { 200: gamePathSchema },
      },
    },
    async (request) => versions.path(currentUser(request), request.params.id, request.params.gameId),
  );

  // Read whenever a workbench or review screen opens: revalidated (decision 0063).
  await revalidatedRoutes(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().get(
      '/game-versions/files/:id/:gameId',
      {
        ...user,
        schema: {
          tags,
          summary:
            "A version's replaced files by path: all of them, or a page: those after `after`, at most `limit`",
          params: versionParamsSchema,
          querystring: filePageQuerySchema,
          response: { 200: versionFileListSchema },
        },
      },
      async (request) =>
        versions.files(currentUser(request), request.params.id, request.params.gameId, request.query),
    );
  });

  r.get(
    '/game-versions/:gameId/:userGameId',
    {
      ...user,
      schema: {
        tags,
        summary: "A user-game's versions",
        params: listVersionsParamsSchema,
        response: { 200: gameVersionListSchema },
      },
    },
    async (request) => versions.list(currentUser(request), request.params.gameId, request.params.userGameId),
  );

  r.post(
    '/game-versions',
    {
      ...user,
      schema: {
        tags,
        summary: 'Create a version (at most 6 per user-game)',
        body: createVersionBodySchema,
        response: { 201: gameVersionSchema },
        errors: {
          403: 'Demo accounts cannot create or change versions (FORBIDDEN).',
          404: 'No such user-game, or not one of your active assignments (NOT_FOUND).',
          409: 'The user-game has its 6 versions already (VERSION_LIMIT).',
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await versions.create(currentUser(request), request.body)),
  );

  r.patch(
    '/game-versions/:id',
    {
      ...user,
      schema: {
        tags,
        summary: "Edit a version's name and description",
        params: idParamSchema,
        body: updateVersionBodySchema,
        response: { 200: gameVersionSchema },
        errors: changeErrors,
      },
    },
    async (request) => versions.update(currentUser(request), request.params.id, request.body),
  );

  r.delete(
    '/game-versions/:id',
    {
      ...user,
      schema: {
        tags,
        summary: 'Delete a version and its files',
        params: idParamSchema,
        response: { 200: messageResponseSchema },
        errors: changeErrors,
      },
    },
    async (request) => {
      await versions.delete(currentUser(request), request.params.id);
      return { message: 'Game version deleted.' };
    },
  );

  r.delete(
    '/game-versions/:versionId/files/:fileId',
    {
      ...user,
      schema: {
        tags,
        summary:
          "Restore original: remove the version's replacement of a game file, so the version serves the watermarked original again",
        params: versionFileParamsSchema,
        response: noContent,
        errors: {
          ...changeErrors,
          404: 'No such version, not one of your active assignments, or no replacement of this file in it (NOT_FOUND).',
        },
      },
    },
    async (request, reply) => {
      await versions.restoreOriginal(currentUser(request), request.params.versionId, request.params.fileId);
      return reply.status(204).send(null);
    },
  );

  r.delete(
    '/game-versions/:id/changeActivity',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Enable / Disable a version',
        params: idParamSchema,
        response: { 200: gameVersionSchema },
      },
    },
    async (request) => versions.toggleActivity(request.params.id),
  );

  r.delete(
    '/game-versions/:id/changeLock',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Lock / UnLock a version',
        params: idParamSchema,
        response: { 200: gameVersionSchema },
      },
    },
    async (request) => versions.toggleLock(request.params.id),
  );

  r.get(
    '/game-versions/:id/zip-url',
    {
      ...user,
      schema: {
        tags,
        summary: 'A files.zip URL with a 15-minute ticket, to open in a new window',
        params: idParamSchema,
        response: { 200: z.object({ url: z.string() }) },
      },
    },
    async (request) => ({ url: await versions.zipUrl(currentUser(request), request.params.id) }),
  );

  r.get(
    '/files/:id/:gameId/files.zip',
    {
      schema: {
        tags,
        summary:
          "A zip of the version's replaced files at their game paths (Authorization header or ?ticket=)",
        // The bearer token or the ticket: without either, or with a bad one, the version is a 404.
        security: [{ bearer: [] }, {}],
        params: versionParamsSchema,
        querystring: z.object({ ticket: z.string().max(2000).optional() }),
        errors: { 403: revokedTicketDoc },
      },
    },
    async (request, reply) => {
      const caller = await versions.zipCaller(request.user, request.params.id, request.query.ticket);
      const { stream, name } = await versions.zip(caller, request.params.id, request.params.gameId);
      return reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .send(stream);
    },
  );

  r.post(
    '/game-version/upload/:versionId/:fileId',
    {
      ...user,
      preValidation: refuseDeclaredBodyOver(maxMultipartBytes(1, maxFileSizeBytes), () =>
        fileTooLarge(undefined, maxFileSizeBytes),
      ),
      schema: {
        tags,
        summary: 'Replace one game file inside a version (multipart: file, fullPath)',
        params: versionFileParamsSchema,
        multipartBody: versionUploadPartsSchema,
        response: { 200: versionFileSchema },
        errors: {
          ...changeErrors,
          422: 'No file, or a file that does not fit the original: not an image or a sound, or an image of another width and height.',
        },
      },
    },
    async (request) => {
      // The content fails with a 413 when the file is over the limit, so nothing cut short is kept.
      const { content } = await readUpload(request, versionUploadPartsSchema, { maxFileSizeBytes });
      return intake.uploadFile(
        currentUser(request),
        request.params.versionId,
        request.params.fileId,
        content,
      );
    },
  );
}
