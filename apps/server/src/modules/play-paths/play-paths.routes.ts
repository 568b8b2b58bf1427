import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { gameFilesRootSchema, gameIdParamSchema, gamePathSchema } from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import type { PlayPathsService } from './play-paths.service';

/** The path calls that hand out play URLs (SPEC §7; DESIGN.md "Play"). */
export async function playPathsRoutes(app: FastifyInstance, { paths }: { paths: PlayPathsService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/games/:id/path',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['play'],
        summary: "A game's play URLs on the play origin (capability token in the path, 2 h)",
        description:
          'Administrators get the original view in orjFile and wtmFile; assigned users get the watermarked view ' +
          'there. emtFile is the skeleton view. The game must be Ready and have an index file (409 otherwise).',
        params: gameIdParamSchema,
        response: { 200: gamePathSchema },
        errors: { 409: 'The game is not Ready, or has no index file (GAME_NOT_READY, NO_INDEX_FILE).' },
      },
    },
    async (request) => paths.gamePaths(currentUser(request), request.params.id),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/games/:id/files-root',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['play'],
        summary:
          "The root URL of a game's original view on the play origin, for thumbnails (admins; any status)",
        description:
          "Add an image's path, each segment percent-encoded, to get its original. The token in the URL lasts 2 hours.",
        params: gameIdParamSchema,
        response: { 200: gameFilesRootSchema },
      },
    },
    async (request) => paths.originalRoot(currentUser(request), request.params.id),
  );
}
