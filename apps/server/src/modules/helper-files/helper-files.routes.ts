import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  filesUploadPartsSchema,
  gameIdParamSchema,
  helperFileParamsSchema,
  helperFilesSchema,
  limits,
  messageResponseSchema,
} from '@reskin/contract';
import { maxMultipartBytes, refuseDeclaredBodyOver, uploadTooLarge } from '../../lib/multipart';
import { currentUser } from '../../plugins/auth';
import { revokedTicketDoc } from '../../lib/download-tickets';
import { incomingFiles } from '../games/games.routes';
import type { HelperFilesService } from './helper-files.service';

export interface HelperFilesRoutesOptions {
  helperFiles: HelperFilesService;
  maxFileSizeBytes: number;
}

/** GET /games/{id}/psd-files/ (SPEC §7) and the helper-file upload, download and delete around it. */
export async function helperFilesRoutes(
  app: FastifyInstance,
  { helperFiles, maxFileSizeBytes }: HelperFilesRoutesOptions,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['helper files'];

  r.get(
    '/games/:id/psd-files',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "A game's helper files, with download URLs that carry a 15-minute ticket",
        params: gameIdParamSchema,
        response: { 200: helperFilesSchema },
      },
    },
    async (request) => helperFiles.list(currentUser(request), request.params.id),
  );

  r.post(
    '/games/:id/psd-files',
    {
      onRequest: app.requireAdmin,
      preValidation: refuseDeclaredBodyOver(
        maxMultipartBytes(limits.adminUploadFiles, maxFileSizeBytes),
        () => uploadTooLarge(limits.adminUploadFiles, maxFileSizeBytes),
      ),
      schema: {
        tags,
        summary: 'Upload helper files (multipart; a file with an existing name replaces it)',
        params: gameIdParamSchema,
        multipartBody: filesUploadPartsSchema,
        response: { 200: z.object({ uploaded: z.number().int() }) },
      },
    },
    async (request) => ({
      uploaded: await helperFiles.upload(request.params.id, incomingFiles(request, maxFileSizeBytes)),
    }),
  );

  r.get(
    '/games/:id/psd-files/:helperId',
    {
      schema: {
        tags,
        summary: 'Download a helper file (Authorization header, or the ?ticket= of the list)',
        // The bearer token or the ticket: without either, or with a bad one, the file is a 404.
        security: [{ bearer: [] }, {}],
        params: helperFileParamsSchema,
        querystring: z.object({ ticket: z.string().max(2000).optional() }),
        errors: { 403: revokedTicketDoc },
      },
    },
    async (request, reply) => {
      const { object, name, contentType } = await helperFiles.open(
        request.user,
        request.params.id,
        request.params.helperId,
        request.query.ticket,
      );
      return reply
        .type(contentType)
        .header('Content-Length', object.size)
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(object.stream);
    },
  );

  r.delete(
    '/games/:id/psd-files/:helperId',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'Delete a helper file',
        params: helperFileParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await helperFiles.delete(request.params.id, request.params.helperId);
      return { message: 'File deleted.' };
    },
  );
}
