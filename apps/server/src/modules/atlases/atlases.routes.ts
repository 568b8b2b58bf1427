import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { gameAtlasesSchema, gameIdParamSchema } from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import type { AtlasesService } from './atlases.service';

/** GET /games/{id}/atlases: a game's sprite sheets with their frames, and the descriptors that failed (issue 26). */
export async function atlasesRoutes(app: FastifyInstance, { atlases }: { atlases: AtlasesService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
