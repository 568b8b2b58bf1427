import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  atlasGridSchema,
  atlasSchema,
  gameAtlasesSchema,
  gameFileParamsSchema,
  gameIdParamSchema,
  noContentSchema,
} from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import type { AtlasesService } from './atlases.service';

const gridErrors = {
  403: 'Only administrators declare or remove grids (FORBIDDEN).',
  404: 'No such game or file (NOT_FOUND).',
  409: 'Versions have replaced frames of this sheet (CONFLICT).',
};

/**
 * GET /games/{id}/atlases: a game's sprite sheets with their frames, and the descriptors that failed; PUT and
 * DELETE /games/{id}/files/{fileId}/grid: a uniform grid declared on an image.
 */
export async function atlasesRoutes(app: FastifyInstance, { atlases }: { atlases: AtlasesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/games/:id/atlases',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['games'],
        summary:
          "A game's sprite sheets: each descriptor recognised among its files, with its pages and frames, and the files that read as descriptors but cannot be used, with why (admins, or the game's assigned artists; demo accounts 403)",
        params: gameIdParamSchema,
        response: { 200: gameAtlasesSchema },
      },
    },
    async (request) => atlases.forGame(currentUser(request), request.params.id),
  );

  r.put(
    '/games/:id/files/:fileId/grid',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['games'],
        summary:
          'Declare (or change) a uniform grid on a game image, for games that slice the sheet in code: frames of frameWidth×frameHeight, numbered row by row, after a margin and with spacing between them (admins only)',
        params: gameFileParamsSchema,
        body: atlasGridSchema,
        response: { 200: atlasSchema },
        errors: {
          ...gridErrors,
          422: 'Not an image, or the grid cuts no whole frame or more than limits.atlas.maxFrames (VALIDATION_FAILED).',
        },
      },
    },
    async (request) =>
      atlases.declareGrid(currentUser(request), request.params.id, request.params.fileId, request.body),
  );

  r.delete(
    '/games/:id/files/:fileId/grid',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['games'],
        summary: "Remove an image's grid: it is a plain image again (admins only)",
        params: gameFileParamsSchema,
        response: { 204: noContentSchema },
        errors: { ...gridErrors, 404: 'No such game or file, or no grid on the file (NOT_FOUND).' },
      },
    },
    async (request, reply) => {
      await atlases.removeGrid(currentUser(request), request.params.id, request.params.fileId);
      return reply.status(204).send(null);
    },
  );
}
